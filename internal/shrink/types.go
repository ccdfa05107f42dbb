package shrink

import (
	"reflect"
	"sync"

	"github.com/fuzzmin/fuzzmin/internal/structured"
)

// composite reports whether v is an argument that is shrunk structurally.
func composite(v any) bool { return v != nil && !Supported(v) && !isValue(v) }

var BytesType = reflect.TypeFor[[]byte]()

// IsLeaf reports whether values of t are shrunk by the native shrinkers:
// bools, numbers, strings, []byte, and custom types (fuzzshrink.Custom), which
// shrink through their encoding.
func IsLeaf(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Slice:
		if t.Elem() == BytesType.Elem() {
			return true
		}
	}
	return isCustom(t)
}

// customTypes caches structured.IsCustom, which nodes asks of every node.
var customTypes sync.Map // reflect.Type → bool

func isCustom(t reflect.Type) bool {
	if c, ok := customTypes.Load(t); ok {
		return c.(bool)
	}
	c := structured.IsCustom(t)
	customTypes.Store(t, c)
	return c
}

// NativeType is the native fuzz type a leaf of type t converts to.
func NativeType(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Slice || isCustom(t) {
		return BytesType
	}
	return basicTypes[t.Kind()]
}

var basicTypes = map[reflect.Kind]reflect.Type{
	reflect.Bool: reflect.TypeFor[bool](), reflect.String: reflect.TypeFor[string](),
	reflect.Int: reflect.TypeFor[int](), reflect.Int8: reflect.TypeFor[int8](),
	reflect.Int16: reflect.TypeFor[int16](), reflect.Int32: reflect.TypeFor[int32](),
	reflect.Int64: reflect.TypeFor[int64](), reflect.Uint: reflect.TypeFor[uint](),
	reflect.Uint8: reflect.TypeFor[uint8](), reflect.Uint16: reflect.TypeFor[uint16](),
	reflect.Uint32: reflect.TypeFor[uint32](), reflect.Uint64: reflect.TypeFor[uint64](),
	reflect.Float32: reflect.TypeFor[float32](), reflect.Float64: reflect.TypeFor[float64](),
}

// Native converts a leaf to its Native fuzz type: a custom value to its
// encoding.
func Native(v reflect.Value) any {
	if isCustom(v.Type()) {
		return structured.MarshalCustom(v)
	}
	return v.Convert(NativeType(v.Type())).Interface()
}

// FromNative converts a native fuzz value to a leaf of type t.
func FromNative(x any, t reflect.Type) reflect.Value {
	if isCustom(t) {
		return structured.UnmarshalCustom(x.([]byte), t)
	}
	return reflect.ValueOf(x).Convert(t)
}
