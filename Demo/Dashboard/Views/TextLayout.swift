/// Small text-formatting helpers for fixed-width terminal panels, free of Foundation so that
/// the output is the same on every platform and locale.
public enum TextLayout {
  /// `value` with exactly `digits` decimals, rounded half away from zero: `fixed(1.875, 2)`
  /// is `"1.88"`.
  ///
  /// - Parameters:
  ///   - value: The number to format.
  ///   - digits: How many decimals to show.
  /// - Returns: The formatted number.
  public static func fixed(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let sign = value < 0 && scaled != 0 ? "-" : ""
    let whole = scaled / Int64(scale)
    guard digits > 0 else { return sign + String(whole) }
    let fraction = String(scaled % Int64(scale))
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count)
      + fraction
  }

  /// A size in binary units: `512 KiB`, `572 MiB`, `1.5 GiB`.
  ///
  /// - Parameters:
  ///   - kibibytes: The size, in KiB.
  ///   - reference: The size whose unit to use; `kibibytes` itself by default.
  /// - Returns: Whole KiB or MiB below one GiB, GiB with one decimal above.
  public static func bytes(kibibytes: UInt64, unitOf reference: UInt64? = nil) -> String {
    let scale = reference ?? kibibytes
    if scale < 1024 { return "\(kibibytes) KiB" }
    if scale < 1024 * 1024 { return "\((kibibytes + 512) / 1024) MiB" }
    return fixed(Double(kibibytes) / (1024 * 1024), digits: 1) + " GiB"
  }

  /// `text` cut or padded with spaces to exactly `width` characters.
  ///
  /// - Parameters:
  ///   - text: The text to fit.
  ///   - width: The width to fit it to.
  ///   - alignRight: Whether to pad on the left instead of the right.
  /// - Returns: The fitted text.
  public static func fit(_ text: String, _ width: Int, alignRight: Bool = false) -> String {
    let count = text.count
    if count >= width { return String(text.prefix(width)) }
    let padding = String(repeating: " ", count: width - count)
    return alignRight ? padding + text : text + padding
  }

  /// A bar `width` characters wide, filled in proportion to `percent`.
  ///
  /// - Parameters:
  ///   - percent: How full the bar is, from 0 to 100; values outside are clamped.
  ///   - width: The bar's width.
  /// - Returns: `█` for the filled part, `░` for the rest.
  public static func bar(percent: Int, width: Int) -> String {
    let filled = (min(100, max(0, percent)) * width + 50) / 100
    return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
  }
}
