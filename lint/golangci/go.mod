module github.com/fairboard/fairboard/lint/golangci

go 1.26.8

require (
	github.com/fairboard/fairboard v0.0.0
	github.com/golangci/plugin-module-register v0.1.2
	golang.org/x/tools v0.52.0
)

replace github.com/fairboard/fairboard => ../..
