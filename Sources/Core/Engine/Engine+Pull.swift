extension Engine {
  /// Computes `target`'s current value from the newest writes, and every stale derived value
  /// it is computed from, each once, inputs first, in a loop: no recursion through the graph,
  /// however deep (a read inside a batch of the end of a chain of 100,000 maps), and no value
  /// computed twice for one read.
  ///
  /// - Complexity: O(stale nodes + their edges).
  @usableFromInline
  static func pullInOrder(_ target: AnyNode) {
    ThreadContext.withCurrent { context in
      // Marks the nodes this pull visited (`AnyNode.pullMark`): unique across threads, so
      // no set to allocate and hash, and no mark to clear.
      let pull = context.takeUniqueIdentity()
      let (stamp, targetInputs) = target.withRootLocked { root in
        target.pullMark = pull
        let stampAndInputs = (root.writeCount, target.inputs)
        root.lock.unlock()
        return stampAndInputs
      }
      // Post-order over the stale part of the graph: each node after its inputs. The lists
      // are the thread's, reused; a pull nested in this one (a computation reading another
      // domain) finds them taken and makes its own.
      var order = context.pullOrder
      var stack = context.pullStack
      context.pullOrder = []
      context.pullStack = []
      stack.append((target, targetInputs, 0))
      postOrder(&stack, into: &order) { input in
        guard !input.isSource else { return nil }
        return input.withRootLocked { root -> ContiguousArray<AnyNode>? in
          defer { root.lock.unlock() }
          guard input.pullMark != pull else { return nil }
          input.pullMark = pull
          return input.isPullCurrent(root) ? nil : input.inputs
        }
      }
      let outerStamp = context.pullStamp
      context.pullStamp = stamp
      if ObservableReads.isAvailable, !context.isInObservationSegment {
        pullInSegment(order, at: stamp, context)
      } else {
        for node in order { node.pullOne(at: stamp, context) }
      }
      context.pullStamp = outerStamp
      order.removeAll(keepingCapacity: true)
      context.pullOrder = order
      context.pullStack = stack
    }
  }

  /// Pulls `order` under one Observation tracking (see `recomputeSegment`): if a computation
  /// read an `@Observable` object, the values computed in the segment are not cached (a
  /// change of the object would not move the stamp they are cached for).
  @inline(never)
  static func pullInSegment(_ order: [AnyNode], at stamp: UInt64, _ context: ThreadContext) {
    let didRead = context.runSegment { for node in order { node.pullOne(at: stamp, context) } }
    context.endPulledInSegment(uncaching: didRead)
  }

  /// Lets the inputs of `node`, a node being freed, go from a loop rather than from inside
  /// its `deinit`, so freeing a chain takes constant stack: the inputs join the thread's
  /// release list, and the outermost call runs the loop, in which the deinits of the nodes it
  /// frees only add to the list.
  static func releaseInputs(of node: AnyNode) {
    guard !node.inputs.isEmpty else { return }
    if _slowPath(!node.inputsShareHome) { Domain.releaseSpan(of: node) }
    ThreadContext.withCurrent { context in
      context.releasing.append(node.inputs)
      node.inputs = []
      guard !context.isReleasing else { return }
      context.isReleasing = true
      while let next = context.releasing.popLast() { _ = next }
      context.isReleasing = false
    }
  }
}

extension AnyNode {
  /// `inputs`, read under the lock (another thread may be the drainer relinking them).
  final func lockedInputs() -> ContiguousArray<AnyNode> {
    withRootLocked { root in
      let inputs = self.inputs
      root.lock.unlock()
      return inputs
    }
  }
}
