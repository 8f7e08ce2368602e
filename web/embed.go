// Package web embeds the built React console (web/dist). Build it with
// `npm --prefix web run build` (the Makefile does); without a build the server
// still runs and answers a short page saying the UI is missing.
package web

import "embed"

// Dist holds dist/ as Vite left it; dist/.gitkeep keeps the folder in git.
//
//go:embed all:dist
var Dist embed.FS
