package onnx

import (
	"encoding/binary"
	"errors"
	"math"
)

// maskFill is what patchMaskFill puts in place of the attention mask's
// fill value: far below any attention score, so a masked token still gets
// no weight, and a number that bfloat16 holds.
const maskFill = -1e9

// patchMaskFill rewrites, in the ONNX graph's bytes, every float scalar
// Constant at or below -1e38 (the graphs exported from Hugging Face
// transformers fill the attention mask with float32's lowest value,
// -3.4028235e38) to maskFill, and returns how many it rewrote. That value
// has no bfloat16 of its own: rounded, it becomes minus infinity, and
// (1 - mask) × fill is then NaN for every token the mask keeps, so a
// graph run in bfloat16 (OpenVINO's default on CPUs with AMX or
// AVX512-BF16) gives vectors unrelated to the model's (cosine 0.3 to 0.6
// to the float32 ones). In float32 the result is the same either way:
// exp(score - 1e9) is 0 as exp(score - 3.4e38) is. The rewrite is in
// place and keeps every length, since a float is 4 bytes either way.
func patchMaskFill(model []byte) (int, error) {
	graph, ok, err := pbField(model, 7) // ModelProto.graph
	if err != nil || !ok {
		return 0, errors.Join(errors.New("no graph"), err)
	}
	n := 0
	err = pbEach(graph, func(num int, typ int, v []byte) error {
		if num != 1 || typ != 2 { // GraphProto.node
			return nil
		}
		op, _, err := pbField(v, 4) // NodeProto.op_type
		if err != nil || string(op) != "Constant" {
			return err
		}
		return pbEach(v, func(num, typ int, attr []byte) error {
			if num != 5 || typ != 2 { // NodeProto.attribute
				return nil
			}
			name, _, err := pbField(attr, 1)
			if err != nil || string(name) != "value" {
				return err
			}
			t, ok, err := pbField(attr, 5) // AttributeProto.t
			if err != nil || !ok {
				return err
			}
			f, err := scalarFloat(t)
			if err != nil || f == nil {
				return err
			}
			if x := math.Float32frombits(binary.LittleEndian.Uint32(f)); x <= -1e38 {
				binary.LittleEndian.PutUint32(f, math.Float32bits(maskFill))
				n++
			}
			return nil
		})
	})
	return n, err
}

// scalarFloat returns the 4 bytes of a TensorProto that holds one float32
// (data type 1, no dimension above 1), whether in raw_data or float_data,
// or nil for any other tensor.
func scalarFloat(t []byte) ([]byte, error) {
	var data []byte
	isFloat, count := false, 1
	err := pbEach(t, func(num, typ int, v []byte) error {
		switch {
		case num == 1 && typ == 0: // dims, unpacked
			count *= int(binary.LittleEndian.Uint64(v))
		case num == 1 && typ == 2: // dims, packed
			for len(v) > 0 {
				d, k := uvarint(v)
				if k <= 0 {
					return errMalformed
				}
				count *= int(d)
				v = v[k:]
			}
		case num == 2 && typ == 0: // data_type
			isFloat = binary.LittleEndian.Uint64(v) == 1
		case num == 9 && typ == 2, num == 4 && typ == 2: // raw_data, packed float_data
			data = v
		case num == 4 && typ == 5: // float_data, unpacked
			data = v
		}
		return nil
	})
	if err != nil || !isFloat || count != 1 || len(data) != 4 {
		return nil, err
	}
	return data, nil
}

var errMalformed = errors.New("edgar13f/search/onnx: malformed ONNX graph")

// uvarint decodes a protobuf varint; k <= 0 when b holds none.
func uvarint(b []byte) (uint64, int) {
	var x uint64
	for i, c := range b {
		if i == 10 {
			return 0, -1
		}
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return x, i + 1
		}
	}
	return 0, 0
}

// pbEach calls fn with every field of the protobuf message msg: its
// number, wire type and value. A varint's value is given as 8
// little-endian bytes (a copy); a length-delimited or fixed-width value is
// a slice of msg itself, so writing into it changes msg.
func pbEach(msg []byte, fn func(num, typ int, v []byte) error) error {
	for len(msg) > 0 {
		key, k := uvarint(msg)
		if k <= 0 {
			return errMalformed
		}
		msg = msg[k:]
		num, typ := int(key>>3), int(key&7)
		var v []byte
		switch typ {
		case 0:
			x, k := uvarint(msg)
			if k <= 0 {
				return errMalformed
			}
			v = binary.LittleEndian.AppendUint64(nil, x)
			msg = msg[k:]
		case 1, 5:
			w := 8
			if typ == 5 {
				w = 4
			}
			if len(msg) < w {
				return errMalformed
			}
			v, msg = msg[:w], msg[w:]
		case 2:
			l, k := uvarint(msg)
			if k <= 0 || uint64(len(msg)-k) < l {
				return errMalformed
			}
			v, msg = msg[k:k+int(l)], msg[k+int(l):]
		default:
			return errMalformed
		}
		if err := fn(num, typ, v); err != nil {
			return err
		}
	}
	return nil
}

// pbField returns the first length-delimited field number num of msg.
func pbField(msg []byte, num int) ([]byte, bool, error) {
	var out []byte
	found := false
	err := pbEach(msg, func(n, typ int, v []byte) error {
		if !found && n == num && typ == 2 {
			out, found = v, true
		}
		return nil
	})
	return out, found, err
}

// pbAppend appends field num of msg: a varint when v is a uint64, else
// the bytes or string length-delimited.
func pbAppend(msg []byte, num int, v any) []byte {
	switch x := v.(type) {
	case uint64:
		msg = binary.AppendUvarint(msg, uint64(num)<<3)
		return binary.AppendUvarint(msg, x)
	case string:
		return pbAppend(msg, num, []byte(x))
	case []byte:
		msg = binary.AppendUvarint(msg, uint64(num)<<3|2)
		msg = binary.AppendUvarint(msg, uint64(len(x)))
		return append(msg, x...)
	}
	panic("pbAppend: unsupported value")
}

// reluGraph returns an ONNX graph (opset 13) of one Relu of a float
// tensor of 8: what pinOpenVINO keeps open.
func reluGraph() []byte {
	valueInfo := func(name string) []byte {
		dim := pbAppend(nil, 1, uint64(8))                        // Dimension.dim_value
		shape := pbAppend(nil, 1, dim)                            // TensorShapeProto.dim
		tensor := pbAppend(pbAppend(nil, 1, uint64(1)), 2, shape) // elem_type float, shape
		typ := pbAppend(nil, 1, tensor)                           // TypeProto.tensor_type
		return pbAppend(pbAppend(nil, 1, name), 2, typ)
	}
	node := pbAppend(pbAppend(pbAppend(nil, 1, "x"), 2, "y"), 4, "Relu")
	graph := pbAppend(nil, 1, node)
	graph = pbAppend(graph, 2, "pin")
	graph = pbAppend(graph, 11, valueInfo("x"))
	graph = pbAppend(graph, 12, valueInfo("y"))
	opset := pbAppend(pbAppend(nil, 1, ""), 2, uint64(13))
	model := pbAppend(nil, 1, uint64(8)) // ir_version
	model = pbAppend(model, 8, opset)
	return pbAppend(model, 7, graph)
}
