module github.com/outflank-othello/outflank

go 1.26

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/spf13/pflag v1.0.10
	golang.org/x/term v0.40.0
)

require golang.org/x/sys v0.41.0 // indirect
