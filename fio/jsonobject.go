package fio

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jsonObject is a JSON object kept in its order, as fio 3.33 writes its
// objects (options as listed, a name repeated as fio lists it; buckets and
// percentiles low to high): written in that order, read in the order of
// the input, a repeated key's last value winning in Map.
type jsonObject[V any] []jsonField[V]

// jsonField is one member of a jsonObject.
type jsonField[V any] struct {
	Key   string
	Value V
}

// set sets key to v: in place when the object has it, else last.
func (o *jsonObject[V]) set(key string, v V) {
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, jsonField[V]{key, v})
}

// Map is the object as a map, the last of a repeated key winning.
func (o jsonObject[V]) Map() map[string]V {
	if o == nil {
		return nil
	}
	m := make(map[string]V, len(o))
	for _, f := range o {
		m[f.Key] = f.Value
	}
	return m
}

// MarshalJSON writes the members in order.
func (o jsonObject[V]) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object's members in their order (null: none).
func (o *jsonObject[V]) UnmarshalJSON(data []byte) error {
	*o = nil
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("want a JSON object: %v", err)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		var v V
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, jsonField[V]{key, v})
	}
	return nil
}
