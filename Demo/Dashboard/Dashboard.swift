// The dashboard demo's views and view models land with issue 6.
import Invalidating
