// The Binding layer: see ARCHITECTURE.md. Its public API lands with its issue.
import InvalidatingCore
