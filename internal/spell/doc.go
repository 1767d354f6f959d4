// Package spell names the known word a misspelled one was meant to be: the "did you mean"
// of an unknown key in the config file, a FAIRY_ variable, or a suite file. One home, so
// every message that suggests a key suggests it the same way.
package spell
