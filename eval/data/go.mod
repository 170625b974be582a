// This folder is a module of its own so that the module users download
// ("go install", "go get") leaves these training games out: a module's zip
// holds no nested module. Nothing in it is Go code; "outflank train
// --selfplay" reads the files by path from a clone.
module github.com/outflank-othello/outflank/eval/data

go 1.26
