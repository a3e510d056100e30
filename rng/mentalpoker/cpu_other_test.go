//go:build !unix

package mentalpoker

import "time"

// processCPU reports no CPU time where the platform gives none (js/wasm).
func processCPU() (time.Duration, bool) { return 0, false }
