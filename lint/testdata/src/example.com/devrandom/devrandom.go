// Package devrandom reads the kernel's entropy devices.
package devrandom

import (
	"io/ioutil"
	"os"
	"syscall"
)

const dev = "/dev/"

const urandom = dev + "urandom"

func reads() {
	os.Open("/dev/urandom")              // want `read of /dev/urandom outside the RNG package`
	os.ReadFile("/dev/random")           // want `read of /dev/random`
	os.OpenFile(urandom, os.O_RDONLY, 0) // want `read of /dev/urandom`
	ioutil.ReadFile("/dev//./urandom")   // want `read of /dev/urandom`
	syscall.Open(dev+"random", 0, 0)     // want `read of /dev/random`
	readAll(urandom)                     // want `read of /dev/urandom`
	os.ReadFile("/etc/hosts")            // not a device
	os.ReadFile("/dev/null")             // not an entropy device
}

func readAll(name string) []byte {
	b, _ := os.ReadFile(name) // not a constant: the rule is about literal paths
	return b
}
