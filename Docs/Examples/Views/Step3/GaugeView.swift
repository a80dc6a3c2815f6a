import Invalidating

/// A one-line gauge: a label, a bar of ten cells and a percentage.
final class GaugeView: HeadlessView {
  @ViewInvalidating(.display) var label = ""
  @ViewInvalidating(.display) var percent = 0

  override func render() -> String {
    let filled = min(max(percent, 0), 100) / 10
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 10 - filled)
    let number = String(percent)
    return label + " [" + bar + "] " + String(repeating: " ", count: 3 - number.count) + number
      + "%"
  }
}
