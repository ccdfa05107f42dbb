// Package campaign is fuzzmin fuzz: it builds the instrumented test
// binaries of a module's fuzz targets (campaign.go), gives the targets
// turns of the toolchain's fuzzer under one budget (campaign_turns.go),
// hands what stops a turn to the minimize stage of package pipeline as a
// parameter and counts each failure once (campaign_failure.go), keeps the
// generated corpora (campaign_corpus.go) and reports (campaign_report.go).
// Its one entry is [Run], over the run context the command made.
package campaign
