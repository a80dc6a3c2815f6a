extension Engine {
  /// Delivers `node`, an event node, once more right after the event being delivered, as an
  /// event of its own, before anything queued: its compute then runs in `.delivery` mode with
  /// none of its inputs changed, and returns the next event it holds. How an event node whose
  /// inputs fire together in one event (`Signal.merge` of two signals derived from one relay)
  /// delivers every one of their events, in order, instead of one (rule 10: events are never
  /// coalesced). Role: call from the node's compute in `.delivery` mode, once per follow-up
  /// wanted.
  package static func deliverAgainAfterThisEvent(_ node: AnyNode) {
    let context = ThreadContext.current
    guard let session = context.sessions.active else {
      fatalError("Engine.deliverAgainAfterThisEvent(_:) called outside a delivery")
    }
    node.assertDelivering(context)
    session.followUps.append(node)
  }

  /// Delivers the follow-ups that the event just delivered asked for, in the order asked, each
  /// as an event of its own (`deliverRecomputation`'s steps), and those they ask for in turn.
  /// A loop, not a recursion: a follow-up's own delivery finds the list being delivered and
  /// leaves it to this loop. Role.
  @inline(never)
  static func deliverFollowUps(_ session: DrainSession, _ context: ThreadContext) {
    guard !session.isDeliveringFollowUps else { return }
    session.isDeliveringFollowUps = true
    var index = 0
    while index < session.followUps.count {
      let node = session.followUps[index]
      index += 1
      node.assertRole()
      session.push(node)
      propagate(session, writes: 0, context, traced: Tracing.isOn)
    }
    session.followUps.removeAllKeepingStorage()
    session.isDeliveringFollowUps = false
  }
}
