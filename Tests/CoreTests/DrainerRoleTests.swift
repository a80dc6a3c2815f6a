import Testing

@testable import InvalidatingCore

/// The drainer role's state machine as a value: each transition's state and returned action,
/// with thread contexts made here standing for the threads (no thread runs, nothing parks).
@Suite("The drainer role as a state machine")
struct DrainerRoleTests {
  /// Three threads' contexts: a drainer, and two writers that may queue and wait.
  let drainer = ThreadContext()
  let writer = ThreadContext()
  let another = ThreadContext()

  /// A role `drainer` took.
  func taken() -> DrainerRole {
    var role = DrainerRole()
    role.take(by: drainer.id)
    return role
  }

  /// The thread a hand-over names, or `nil` for another step.
  func successor(of step: DrainerRole.Step) -> ObjectIdentifier? {
    if case .handOver(let successor) = step { return successor._withUnsafeGuaranteedRef(\.id) }
    return nil
  }

  func isDeliverNext(_ step: DrainerRole.Step) -> Bool {
    if case .deliverNext = step { return true }
    return false
  }

  func isLeave(_ step: DrainerRole.Step) -> Bool {
    if case .leave = step { return true }
    return false
  }

  @Test("A free role is taken by the writer that finds it, and is draining")
  func takingAFreeRole() {
    var role = DrainerRole()
    #expect(role.state == .free)
    #expect(role.isFree)
    role.take(by: drainer.id)
    #expect(role.state == .draining)
    #expect(!role.isFree)
    #expect(role.isDrained(onlyBy: drainer.id))
    #expect(!role.isDrained(onlyBy: writer.id))
  }

  @Test("A change queued behind a drainer that is not closing returns, without waiting")
  func queueingBehindADrainer() {
    var role = taken()
    #expect(role.queued(by: writer, holdsRoles: false, queueCount: 1) == .returns)
    #expect(role.waiters.isEmpty)
    #expect(role.state == .draining)
  }

  @Test("At the hand-over limit a writer that holds no role waits; one that holds a role never")
  func queueingAtTheLimit() {
    var role = taken()
    let full = Engine.handOverLimit
    #expect(role.queued(by: writer, holdsRoles: true, queueCount: full) == .returns)
    #expect(role.waiters.isEmpty)
    #expect(role.queued(by: writer, holdsRoles: false, queueCount: full) == .waitsForTurn)
    #expect(role.waiters.count == 1)
    #expect(role.queued(by: another, holdsRoles: false, queueCount: full - 1) == .returns)
    #expect(role.waiters.count == 1)
  }

  @Test("A drain closes the domain, delivers its snapshot, then hands the role to the first waiter")
  func drainingASnapshotThenHandingOver() {
    var role = taken()
    var pass = DrainPass()
    // Two changes queued by others before the drainer looked.
    var step = role.nextStep(of: drainer.id, queueCount: 2, hasSplitCandidates: false, pass: &pass)
    #expect(isDeliverNext(step))
    #expect(role.state == .closing)
    // Closing: a writer now waits, even with a short queue, and so does a second one.
    #expect(role.queued(by: writer, holdsRoles: false, queueCount: 2) == .waitsForTurn)
    #expect(role.queued(by: another, holdsRoles: false, queueCount: 3) == .waitsForTurn)
    step = role.nextStep(of: drainer.id, queueCount: 2, hasSplitCandidates: false, pass: &pass)
    #expect(isDeliverNext(step))
    // The snapshot is delivered; the waiters' two changes are left, for the first of them.
    step = role.nextStep(of: drainer.id, queueCount: 2, hasSplitCandidates: false, pass: &pass)
    #expect(successor(of: step) == writer.id)
    #expect(role.state == .draining)
    #expect(role.isDrained(onlyBy: writer.id))
    #expect(role.waiters.count == 1)
    // The successor's own drain: its snapshot is the two changes, then the next waiter's turn.
    var next = DrainPass()
    step = role.nextStep(of: writer.id, queueCount: 2, hasSplitCandidates: false, pass: &next)
    #expect(isDeliverNext(step))
    step = role.nextStep(of: writer.id, queueCount: 1, hasSplitCandidates: false, pass: &next)
    #expect(isDeliverNext(step))
    step = role.nextStep(of: writer.id, queueCount: 1, hasSplitCandidates: false, pass: &next)
    #expect(successor(of: step) == another.id)
    #expect(role.waiters.isEmpty)
  }

  @Test("A batch's writes taken as one event count against the snapshot each")
  func batchWritesCountAgainstTheSnapshot() {
    var role = taken()
    var pass = DrainPass()
    #expect(role.queued(by: writer, holdsRoles: false, queueCount: 3) == .returns)
    // Three writes of one batch queued, delivered as one event.
    let step = role.nextStep(of: drainer.id, queueCount: 3, hasSplitCandidates: false, pass: &pass)
    #expect(isDeliverNext(step))
    pass.countDelivered()
    pass.countDelivered()
    #expect(pass.snapshot == 0)
    // Writers wait now; the next look hands over with the queue as they left it.
    #expect(role.queued(by: writer, holdsRoles: false, queueCount: 1) == .waitsForTurn)
    let handed = role.nextStep(
      of: drainer.id, queueCount: 1, hasSplitCandidates: false, pass: &pass)
    #expect(successor(of: handed) == writer.id)
  }

  @Test("With nobody waiting the drainer empties the queue, leaves, and the role is free")
  func drainingToEmpty() {
    var role = taken()
    var pass = DrainPass()
    for left in stride(from: 3, through: 1, by: -1) {
      let step = role.nextStep(
        of: drainer.id, queueCount: left, hasSplitCandidates: false, pass: &pass)
      #expect(isDeliverNext(step))
    }
    // Others queued more meanwhile, with nobody waiting: still the drainer's.
    #expect(
      isDeliverNext(
        role.nextStep(of: drainer.id, queueCount: 1, hasSplitCandidates: false, pass: &pass)))
    #expect(
      isLeave(role.nextStep(of: drainer.id, queueCount: 0, hasSplitCandidates: false, pass: &pass)))
    #expect(role.leave(drainer.id).isEmpty)
    #expect(role.state == .free)
    #expect(role.violation == nil)
  }

  @Test("With edges to cut, the drainer delivers the waiters' changes itself once, then frees them")
  func deliveringTheRestForASplit() {
    var role = taken()
    var pass = DrainPass()
    var step = role.nextStep(of: drainer.id, queueCount: 1, hasSplitCandidates: true, pass: &pass)
    #expect(isDeliverNext(step))
    #expect(role.queued(by: writer, holdsRoles: false, queueCount: 1) == .waitsForTurn)
    // The snapshot is done and a waiter is there, but a split needs a quiet domain.
    step = role.nextStep(of: drainer.id, queueCount: 1, hasSplitCandidates: true, pass: &pass)
    #expect(isDeliverNext(step))
    #expect(pass.deliversTheRest)
    step = role.nextStep(of: drainer.id, queueCount: 0, hasSplitCandidates: true, pass: &pass)
    #expect(isLeave(step))
    let released = role.leave(drainer.id).map { $0._withUnsafeGuaranteedRef(\.id) }
    #expect(released == [writer.id])
    #expect(role.state == .free)
    #expect(role.violation == nil)
  }

  @Test("Only once per drain: a second snapshot with a waiter and edges to cut hands over")
  func deliveringTheRestOnlyOnce() {
    var role = taken()
    var pass = DrainPass()
    _ = role.nextStep(of: drainer.id, queueCount: 1, hasSplitCandidates: true, pass: &pass)
    #expect(role.queued(by: writer, holdsRoles: false, queueCount: 1) == .waitsForTurn)
    _ = role.nextStep(of: drainer.id, queueCount: 1, hasSplitCandidates: true, pass: &pass)
    // A writer that may not wait queued more; the rest is delivered, then the role goes.
    let step = role.nextStep(of: drainer.id, queueCount: 1, hasSplitCandidates: true, pass: &pass)
    #expect(successor(of: step) == writer.id)
  }

  @Test("A merge of two busy domains is shared; each drainer leaves, the last frees the waiters")
  func absorbingABusyRole() {
    var role = taken()
    #expect(
      role.queued(by: writer, holdsRoles: false, queueCount: Engine.handOverLimit) == .waitsForTurn)
    var other = DrainerRole()
    let otherDrainer = ThreadContext()
    other.take(by: otherDrainer.id)
    var otherPass = DrainPass()
    _ = other.nextStep(
      of: otherDrainer.id, queueCount: 1, hasSplitCandidates: false, pass: &otherPass)
    #expect(other.queued(by: another, holdsRoles: false, queueCount: 1) == .waitsForTurn)
    role.absorb(&other)
    #expect(other.state == .free)
    #expect(other.violation == nil)
    #expect(role.state == .shared)
    #expect(role.isClosing)  // the merged domain was closing
    // Shared: a drain leaves at once, whatever is queued.
    var pass = DrainPass()
    let step = role.nextStep(
      of: otherDrainer.id, queueCount: 5, hasSplitCandidates: false, pass: &pass)
    #expect(isLeave(step))
    #expect(role.leave(otherDrainer.id).isEmpty)
    #expect(role.state == .closing)
    // The last drainer leaves: this domain's waiter first, then the merged one's.
    let released = role.leave(drainer.id).map { $0._withUnsafeGuaranteedRef(\.id) }
    #expect(released == [writer.id, another.id])
    #expect(role.state == .free)
  }

  @Test("Leaving alone is one step, unless another drainer or a waiter is there")
  func leavingAlone() {
    var role = taken()
    let left = role.leaveIfAlone()
    #expect(left)
    #expect(role.state == .free)
    role.take(by: drainer.id)
    #expect(
      role.queued(by: writer, holdsRoles: false, queueCount: Engine.handOverLimit) == .waitsForTurn)
    let leftWithAWaiter = role.leaveIfAlone()
    #expect(!leftWithAWaiter)
    #expect(role.state == .draining)
  }

  @Test("A drainer left alone in a role a merge made closing does not leave it closing")
  func leavingAloneAfterAClosingMerge() {
    // A merge of a busy domain whose drainer was closing (delivering a snapshot) makes the role
    // shared and closing; that drainer finishes and leaves, and the one left finds the queue
    // empty. Its one-step leave made the role free and still closing: "a free role left
    // closing", which the model programs under threads hit (the checks after a write).
    var role = taken()
    var other = DrainerRole()
    let otherDrainer = ThreadContext()
    other.take(by: otherDrainer.id)
    var pass = DrainPass()
    #expect(
      isDeliverNext(
        other.nextStep(of: otherDrainer.id, queueCount: 1, hasSplitCandidates: false, pass: &pass)))
    #expect(other.state == .closing)
    role.absorb(&other)
    #expect(role.state == .shared)
    #expect(role.leave(otherDrainer.id).isEmpty)
    if role.leaveIfAlone() {
      #expect(role.state == .free)
      #expect(role.violation == nil)
    } else {
      #expect(role.leave(drainer.id).isEmpty)
      #expect(role.state == .free)
      #expect(role.violation == nil)
    }
  }

  @Test("An impossible transition stops, naming the drainer role's inconsistency")
  func impossibleTransitionsStop() async {
    let results = [
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var role = DrainerRole()
        let thread = ThreadContext()
        role.take(by: thread.id)
        role.take(by: thread.id)  // taken twice
      },
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var role = DrainerRole()
        _ = role.leave(ThreadContext().id)  // left, never held
      },
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var role = DrainerRole()
        var pass = DrainPass()
        _ = role.nextStep(  // a drain of a free role
          of: ThreadContext().id, queueCount: 1, hasSplitCandidates: false, pass: &pass)
      },
    ]
    for result in results {
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("Internal inconsistency in the drainer role"))
    }
  }
}
