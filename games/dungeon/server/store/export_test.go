package store

// The conversions as they were before the direct walk, for the tests that
// hold the new ones to them.
var (
	ToDocJSON     = toDocJSON
	FromDocJSON   = fromDocJSON
	JSONToDocStd  = jsonToDocStd
	CheckStorable = checkStorable
)
