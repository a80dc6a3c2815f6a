import Invalidating
import InvalidatingTestSupport
import Observation
import Testing

/// An `@Observable` model, as apps that adopted Observation write them.
@Observable
private final class Cart: @unchecked Sendable {
  // Safe for these tests: written on the main actor only.
  var quantity = 1
  var unitPrice = 10
}

@MainActor
@Suite("Observation interop: @Observable reads are tracked like Property reads")
struct ObservationInteropTests {
  @Test func aComputedPropertyFollowsAnObservableItReadsAtTheEndOfABatch() {
    let cart = Cart()
    let discount = BehaviorRelay(0)
    let total = Property { cart.quantity * cart.unitPrice - discount.value }
    let seen = Recorder<Int>()
    let token = total.subscribe(seen.sink)
    batch { cart.quantity = 3 }
    #expect(seen.values == [10, 30])
    discount.accept(5)
    #expect(seen.values == [10, 30, 25])
    batch {
      cart.unitPrice = 20
      cart.quantity = 2
    }
    // One delivery for the batch, computed from both new values.
    #expect(seen.values == [10, 30, 25, 35])
    token.cancel()
  }

  @Test func outsideABatchTheChangeArrivesOneMainActorTurnLater() async {
    let cart = Cart()
    let total = Property { cart.quantity * cart.unitPrice }
    let seen = Recorder<Int>()
    let token = total.subscribe(seen.sink)
    cart.quantity = 4
    // Observation announced the change before storing it: computing now would read 1.
    #expect(seen.values == [10])
    #expect(await waitUntil { seen.values == [10, 40] })
    cart.quantity = 5
    #expect(await waitUntil { seen.values == [10, 40, 50] })
    token.cancel()
  }

  @Test func aComputationThatStartsReadingAnObservableInADeliveryFollowsItFromThen() {
    // Not seen reading `@Observable` objects when made, so deliveries run it without
    // Observation's tracking of its own: the delivery that sends it down the other branch must
    // still notice the read.
    let cart = Cart()
    let usesCart = BehaviorRelay(false)
    let total = Property { usesCart.value ? cart.quantity * cart.unitPrice : 0 }
    let doubled = Property { total.value * 2 }
    let seen = Recorder<Int>()
    let token = doubled.subscribe(seen.sink)
    usesCart.accept(true)
    // One delivery for the switch: heard once, however many times it ran.
    #expect(seen.values == [0, 20])
    batch { cart.quantity = 3 }
    #expect(seen.values == [0, 20, 60])
    usesCart.accept(false)
    #expect(seen.values == [0, 20, 60, 0])
    token.cancel()
  }

  @Test func aValueReadInABatchIsNotCachedPastAWriteToAnObservableItRead() {
    let cart = Cart()
    let head = BehaviorRelay(1)
    let total = Property { head.value * cart.quantity }
    let seen = Recorder<Int>()
    let token = total.subscribe(seen.sink)
    batch {
      head.accept(2)
      // Computed on demand, from the batch's newest values.
      #expect(total.value == 2)
      cart.quantity = 5
      #expect(total.value == 10)
    }
    #expect(seen.values == [1, 10])
    token.cancel()
  }

  @Test func aViewPassThatReadsAnObservableIsRequestedWhenItChanges() {
    final class CartView: HeadlessView {
      let cart: Cart
      init(cart: Cart) {
        self.cart = cart
        super.init(frame: .zero)
      }
      override func render() -> String { "\(cart.quantity) × \(cart.unitPrice)" }
    }
    let cart = Cart()
    let view = CartView(cart: cart)
    view.displayIfNeeded()
    #expect(view.renderedText == "1 × 10")
    cart.quantity = 2
    // Requested at once; the pass runs later and reads the stored value.
    #expect(view.needsDisplay)
    view.displayIfNeeded()
    #expect(view.renderedText == "2 × 10")
    cart.unitPrice = 12  // the pass registered again when it ran
    #expect(view.needsDisplay)
  }
}
