// Package fairboard is the deployable root of the module: Google's Go
// buildpack builds the package at the root of the uploaded source, and the
// Functions Framework serves whatever that package (and what it imports)
// registered in init. Importing deploy registers createGame, joinGame,
// startGame, act and getView. See docs/functions.md for the deploy commands.
package fairboard

import _ "github.com/fairboard/fairboard/deploy"
