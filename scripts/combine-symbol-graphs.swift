// Rewrites the symbol graphs of the package's modules as the graphs of one module,
// `Invalidating`, so that DocC builds one site with one sidebar: a symbol of InvalidatingBinding
// then opens under the same root as the articles and every other symbol, instead of switching
// the sidebar to a module of its own. The layers stay products of their own; only the
// documentation presents them as the one module that `import Invalidating` brings.
//
//     swift scripts/combine-symbol-graphs.swift INPUT_DIR OUTPUT_DIR
//
// INPUT_DIR holds one folder per module with the files swift-symbolgraph-extract wrote
// (`M.symbols.json`, `M@Other.symbols.json`). Each file becomes
// OUTPUT_DIR/<its name>/Invalidating.symbols.json, in which:
//
// - the module's name, the module of each doc comment and each extension's extended module are
//   `Invalidating` when they name one of the package's modules;
// - doc-comment links that name a layer, ``InvalidatingCore/Property``, lose the prefix
//   (``Property``): in the sources the prefix keeps per-module documentation (Xcode's) linked;
// - a deprecation on one platform (`@available(iOS, deprecated: 15, renamed: ...)`: a back-port
//   that Apple's own type replaces there) is left out, and so is an entry it leaves with
//   nothing but its platform, so that DocC shows the name as available from the catalog's
//   default versions instead of under a red "Deprecated" badge; the symbol's doc comment says
//   from which version Apple's type exists, and the compiler still offers its fix-it. A
//   deprecation on every platform (`@available(*, deprecated, ...)`) is kept;
// - a symbol deprecated everywhere and renamed (`@available(*, deprecated, renamed: ...)`, such
//   as `Property.subscribe(on:_:)`) is left out, with its relationships: it exists for the
//   compiler's fix-it to the new name, and would otherwise be listed among the members that
//   are meant to be used. The article that maps the old spellings says where they went;
// - a symbol with an iOS availability entry gets the same entry for iPadOS and Mac Catalyst
//   when it has none, as the compiler applies it: otherwise DocC fills those two platforms from
//   the catalog's default availability and shows a back-ported name, deprecated from iOS 15,
//   as available without deprecation there.
//
// Uses Foundation only, so it runs with the toolchain's interpreter.
import Foundation

let layers: Set = [
  "InvalidatingCore", "InvalidatingBinding", "InvalidatingPlatform", "InvalidatingInvalidation",
  "InvalidatingTesting",
]
let combined = "Invalidating"

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("combine-symbol-graphs: \(message)\n".utf8))
  exit(1)
}

/// `name`, or the combined module's name when `name` is one of the package's modules.
func renamed(_ name: Any?) -> Any? {
  guard let name = name as? String else { return name }
  return layers.contains(name) ? combined : name
}

/// `text` with every ``Layer/ link prefix removed.
func unprefixed(_ text: String) -> String {
  layers.reduce(text) { $0.replacingOccurrences(of: "``\($1)/", with: "``") }
}

/// `entry` without its deprecation when it is one platform's, or `nil` when nothing is left of
/// it but the platform's name.
func withoutPlatformDeprecation(_ entry: [String: Any]) -> [String: Any]? {
  guard let domain = entry["domain"] as? String, domain != "*", entry["deprecated"] != nil
  else { return entry }
  var entry = entry
  for key in ["deprecated", "renamed", "message"] { entry[key] = nil }
  return entry.keys.contains(where: { $0 != "domain" }) ? entry : nil
}

/// Whether `symbol` is deprecated on every platform in favour of a new name.
func isRenamedEverywhere(_ symbol: [String: Any]) -> Bool {
  (symbol["availability"] as? [[String: Any]] ?? []).contains { entry in
    entry["domain"] as? String == "*" && entry["isUnconditionallyDeprecated"] as? Bool == true
      && entry["renamed"] != nil
  }
}

/// The symbol's unique identifier (its USR).
func preciseIdentifier(_ symbol: [String: Any]) -> String? {
  (symbol["identifier"] as? [String: Any])?["precise"] as? String
}

func rewrite(symbol: [String: Any]) -> [String: Any] {
  var symbol = symbol
  if var comment = symbol["docComment"] as? [String: Any] {
    comment["module"] = renamed(comment["module"])
    if let lines = comment["lines"] as? [[String: Any]] {
      comment["lines"] = lines.map { line -> [String: Any] in
        var line = line
        if let text = line["text"] as? String { line["text"] = unprefixed(text) }
        return line
      }
    }
    symbol["docComment"] = comment
  }
  if var extensionInfo = symbol["swiftExtension"] as? [String: Any] {
    extensionInfo["extendedModule"] = renamed(extensionInfo["extendedModule"])
    symbol["swiftExtension"] = extensionInfo
  }
  if let entries = symbol["availability"] as? [[String: Any]] {
    let kept = entries.compactMap(withoutPlatformDeprecation)
    symbol["availability"] = kept.isEmpty ? nil : kept
  }
  if var availability = symbol["availability"] as? [[String: Any]],
    let iOS = availability.first(where: { $0["domain"] as? String == "iOS" })
  {
    for domain in ["iPadOS", "macCatalyst"]
    where !availability.contains(where: { $0["domain"] as? String == domain }) {
      var entry = iOS
      entry["domain"] = domain
      availability.append(entry)
    }
    symbol["availability"] = availability
  }
  return symbol
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let input = arguments.first, let output = arguments.last else {
  fail("usage: swift scripts/combine-symbol-graphs.swift INPUT_DIR OUTPUT_DIR")
}
let files =
  FileManager.default.enumerator(atPath: input)?.compactMap { $0 as? String }
  .filter { $0.hasSuffix(".symbols.json") }.sorted() ?? []
if files.isEmpty { fail("no symbol graphs under \(input)") }
for file in files {
  let source = URL(fileURLWithPath: input).appendingPathComponent(file)
  guard
    var graph = try JSONSerialization.jsonObject(with: Data(contentsOf: source))
      as? [String: Any],
    var module = graph["module"] as? [String: Any],
    let symbols = graph["symbols"] as? [[String: Any]]
  else { fail("\(file) is not a symbol graph") }
  module["name"] = renamed(module["name"])
  graph["module"] = module
  let renamedAway = Set(symbols.filter(isRenamedEverywhere).compactMap(preciseIdentifier))
  graph["symbols"] = symbols.filter { !isRenamedEverywhere($0) }.map(rewrite(symbol:))
  if let relationships = graph["relationships"] as? [[String: Any]] {
    graph["relationships"] = relationships.filter { relationship in
      !renamedAway.contains(relationship["source"] as? String ?? "")
        && !renamedAway.contains(relationship["target"] as? String ?? "")
    }
  }
  let name = String(URL(fileURLWithPath: file).lastPathComponent.dropLast(".symbols.json".count))
  let folder = URL(fileURLWithPath: output).appendingPathComponent(name)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  try JSONSerialization.data(withJSONObject: graph, options: [.sortedKeys])
    .write(to: folder.appendingPathComponent("\(combined).symbols.json"))
}
print("combined \(files.count) symbol graphs into the module \(combined)")
