package model_test

import (
	"errors"
	"fmt"

	"github.com/edgar13f/edgar13f/agent/model"
)

// With nothing configured, New says what to set.
func ExampleNew() {
	_, err := model.New(model.Config{})
	fmt.Println(errors.Is(err, model.ErrNoModel))
	// Output:
	// true
}
