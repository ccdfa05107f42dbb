module example.com/jsonbench

go 1.26

require (
	github.com/buger/jsonparser v1.0.0
	github.com/tidwall/gjson v1.6.0
)

require (
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/tidwall/match v1.0.1 // indirect
	github.com/tidwall/pretty v1.0.0 // indirect
)
