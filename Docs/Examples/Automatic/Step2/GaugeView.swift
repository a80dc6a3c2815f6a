import Invalidating

/// A one-line gauge: a label, a bar of ten cells and a percentage.
final class GaugeView: HeadlessView {
  @ViewInvalidating(.display) var label = ""
  @ViewInvalidating(.display) var percent = 0

  override func render() -> String {
    let shown = min(max(percent, 0), 100)
    let bar =
      String(repeating: "#", count: shown / 10)
      + String(repeating: ".", count: 10 - shown / 10)
    let number = String(shown)
    let padding = String(repeating: " ", count: 3 - number.count)
    return "\(label) [\(bar)] \(padding)\(number)%"
  }
}
