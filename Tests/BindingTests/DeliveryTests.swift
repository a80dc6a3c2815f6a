import Dispatch
import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct DeliveryTests {
  @Test func onAQueueChangesArriveInOrderAndCoalesce() {
    let relay = BehaviorRelay(0)
    let queue = DispatchQueue(label: "delivery")
    let seen = Recorder<Int>()
    queue.suspend()
    let token = relay.asProperty().observe(on: queue, seen.sink)
    relay.accept(1)
    relay.accept(2)
    relay.accept(3)
    #expect(seen.values == [])
    queue.resume()
    queue.sync {}
    #expect(seen.values == [3])
    relay.accept(4)
    queue.sync {}
    #expect(seen.values == [3, 4])
    _ = token
  }

  @Test func onAQueueTheSinkRunsOnThatQueue() {
    let relay = BehaviorRelay(0)
    let queue = DispatchQueue(label: "delivery")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    let seen = Recorder<Int?>()
    let token = relay.asProperty().observe(on: queue) { _ in
      seen.record(DispatchQueue.getSpecific(key: key))
    }
    queue.sync {}
    #expect(seen.values == [7])
    _ = token
  }

  @Test func cancellingDropsAWaitingDelivery() {
    let relay = BehaviorRelay(0)
    let queue = DispatchQueue(label: "delivery")
    let seen = Recorder<Int>()
    queue.suspend()
    let token = relay.asProperty().observe(on: queue, seen.sink)
    relay.accept(1)
    token.cancel()
    queue.resume()
    queue.sync {}
    #expect(seen.values == [])
  }

  @Test func theLastValueArrivesWhenTheRelayIsReleased() {
    var relay: BehaviorRelay<Int>? = BehaviorRelay(0)
    let queue = DispatchQueue(label: "delivery")
    let seen = Recorder<Int>()
    queue.suspend()
    let token = relay!.asProperty().observe(on: queue, seen.sink)
    relay!.accept(9)
    relay = nil
    queue.resume()
    queue.sync {}
    #expect(seen.values == [9])
    _ = token
  }

  @Test func backgroundWritersEndOnTheFinalValue() async {
    let relay = BehaviorRelay(0)
    let queue = DispatchQueue(label: "delivery")
    let seen = WaitingRecorder<Int>()
    let token = relay.asProperty().observe(on: queue, seen.sink)
    await withTaskGroup(of: Void.self) { group in
      for writer in 1...4 {
        group.addTask {
          for step in 1...100 { relay.accept(writer * 1000 + step) }
        }
      }
    }
    relay.accept(-1)
    queue.sync {}
    #expect(seen.values.last == -1)
    #expect(seen.values.count <= 402)
    _ = token
  }

  actor Screen {
    var shown: [Int] = []
    func show(_ value: Int) { shown.append(value) }
  }

  @Test func onAnActorTheSinkIsIsolatedToIt() async {
    let relay = BehaviorRelay(0)
    let screen = Screen()
    let seen = WaitingRecorder<Int>()
    let token = relay.asProperty().observe(on: screen) { screen, value in
      screen.show(value)
      seen.record(value)
    }
    await seen.waitForCount(1)
    relay.accept(5)
    await seen.waitForCount(2)
    #expect(await screen.shown == [0, 5])
    _ = token
  }
}
