package system_test

import (
	"testing"

	"github.com/bluebird/console/internal/apptest"
)

func TestMain(m *testing.M) { apptest.Main(m) }
