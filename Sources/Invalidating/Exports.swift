// The one import: `import Invalidating` brings every layer.
@_exported import InvalidatingBinding
@_exported import InvalidatingCore
@_exported import InvalidatingInvalidation
@_exported import InvalidatingPlatform
