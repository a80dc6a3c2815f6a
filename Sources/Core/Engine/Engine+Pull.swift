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
      let stamp = target.withRootLocked { root -> UInt64 in
        let stamp = root.writeCount
        root.lock.unlock()
        return stamp
      }
      // Post-order over the stale part of the graph: each node after its inputs.
      var order: [AnyNode] = []
      var visited: Set<ObjectIdentifier> = [ObjectIdentifier(target)]
      var stack: [(node: AnyNode, inputs: ContiguousArray<AnyNode>, next: Int)] = [
        (target, target.lockedInputs(), 0)
      ]
      while !stack.isEmpty {
        let top = stack.count - 1
        let index = stack[top].next
        guard index < stack[top].inputs.count else {
          order.append(stack.removeLast().node)
          continue
        }
        stack[top].next = index + 1
        let input = stack[top].inputs[index]
        guard !input.isSource, visited.insert(ObjectIdentifier(input)).inserted else { continue }
        let current = input.withRootLocked { root -> Bool in
          let current = input.isPullCurrent(root)
          root.lock.unlock()
          return current
        }
        if !current { stack.append((input, input.lockedInputs(), 0)) }
      }
      let outerStamp = context.pullStamp
      context.pullStamp = stamp
      for node in order { node.pullOne(at: stamp, context) }
      context.pullStamp = outerStamp
    }
  }

  /// Lets the inputs of `node`, a node being freed, go from a loop rather than from inside
  /// its `deinit`, so freeing a chain takes constant stack: the inputs join the thread's
  /// release list, and the outermost call runs the loop, in which the deinits of the nodes it
  /// frees only add to the list.
  static func releaseInputs(of node: AnyNode) {
    guard !node.inputs.isEmpty else { return }
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
