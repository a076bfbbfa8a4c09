//go:build tools

// Package franz pins franz-go so `go test github.com/twmb/franz-go/pkg/kgo`
// can run that package's own integration tests against sharebroker.
package franz

import _ "github.com/twmb/franz-go/pkg/kgo"
