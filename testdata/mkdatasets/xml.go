package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html/charset"
)

// element is a parsed XML element: its local name, text and children.
type element struct {
	name     string
	text     string
	children []*element
}

// parseXML reads a document into a tree of local names (namespace
// prefixes dropped), text trimmed.
func parseXML(data []byte) (*element, error) {
	data = bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("\ufeff")), " \t\r\n")
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = charset.NewReaderLabel
	root := &element{}
	stack := []*element{root}
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("mkdatasets: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &element{name: t.Name.Local}
			top := stack[len(stack)-1]
			top.children = append(top.children, e)
			stack = append(stack, e)
			text.Reset()
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			e := stack[len(stack)-1]
			if len(e.children) == 0 {
				e.text = strings.TrimSpace(text.String())
			}
			stack = stack[:len(stack)-1]
			text.Reset()
		}
	}
	if len(root.children) != 1 {
		return nil, fmt.Errorf("mkdatasets: %d root elements", len(root.children))
	}
	return root.children[0], nil
}

// at returns the first element at the slash-separated path of local names
// below e, or nil.
func (e *element) at(path string) *element {
	cur := e
	for _, name := range strings.Split(path, "/") {
		var next *element
		for _, c := range cur.children {
			if c.name == name {
				next = c
				break
			}
		}
		if next == nil {
			return nil
		}
		cur = next
	}
	return cur
}

// str returns the text at path, "" when absent.
func (e *element) str(path string) string {
	if e == nil {
		return ""
	}
	if x := e.at(path); x != nil {
		return x.text
	}
	return ""
}

// all returns the children of the element at path named name.
func (e *element) all(path, name string) []*element {
	x := e
	if path != "" {
		x = e.at(path)
	}
	if x == nil {
		return nil
	}
	var out []*element
	for _, c := range x.children {
		if c.name == name {
			out = append(out, c)
		}
	}
	return out
}
