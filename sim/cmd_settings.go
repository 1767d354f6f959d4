package sim

import (
	"slices"
	"sort"
	"strings"
)

// settings and content: the settings provider (global, system, secure) through both of the
// commands clients write it with.

func cmdSettings(p *Phone, c *cmdIO) int {
	args := c.args[1:]
	for len(args) > 0 && (args[0] == "--user" || args[0] == "--lineage") {
		if len(args) < 2 {
			break
		}
		args = args[2:]
	}
	usage := func() int {
		c.errorf("Settings provider (settings) commands:\n  help\n      Print this help text.\n" +
			"  get [--user <USER_ID> | current] NAMESPACE KEY\n      Retrieve the current value of KEY.\n" +
			"  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]\n" +
			"      Change the contents of KEY to VALUE.\n  delete [--user <USER_ID> | current] NAMESPACE KEY\n" +
			"      Delete the entry for KEY.\n  list [--user <USER_ID> | current] NAMESPACE\n" +
			"      Print all defined keys.\n      NAMESPACE is one of {system, secure, global}, case-insensitive\n")
		return 255
	}
	if len(args) < 2 {
		return usage()
	}
	ns := strings.ToLower(args[1])
	store, ok := p.settings[ns]
	if !ok {
		return usage()
	}
	switch args[0] {
	case "get":
		if len(args) < 3 {
			return usage()
		}
		v, ok := store[args[2]]
		if !ok {
			v = "null"
		}
		c.printf("%s\n", v)
	case "put":
		if len(args) < 4 {
			return usage()
		}
		p.putSetting(ns, args[2], args[3])
	case "delete":
		if len(args) < 3 {
			return usage()
		}
		_, had := store[args[2]]
		delete(store, args[2])
		c.printf("Deleted %d rows\n", map[bool]int{true: 1, false: 0}[had])
	case "list":
		keys := make([]string, 0, len(store))
		for k := range store {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			c.printf("%s=%s\n", k, store[k])
		}
	default:
		return usage()
	}
	return 0
}

// cmdContent answers `content query|insert|update|delete --uri content://settings/NS …`,
// the settings provider clients write rotation through.
func cmdContent(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("usage: adb shell content [subcommand] [options]\n")
		return 1
	}
	var uri, where string
	binds := map[string]string{}
	for i := 2; i+1 < len(c.args); i += 2 {
		switch c.args[i] {
		case "--uri":
			uri = c.args[i+1]
		case "--where":
			where = c.args[i+1]
		case "--bind":
			// name:type:value
			parts := strings.SplitN(c.args[i+1], ":", 3)
			if len(parts) == 3 {
				binds[parts[0]] = parts[2]
			}
		}
	}
	ns, ok := strings.CutPrefix(uri, "content://settings/")
	store := p.settings[ns]
	if !ok || store == nil {
		c.errorf("Error while accessing provider:%s\njava.lang.IllegalArgumentException: Unknown URI %s\n",
			strings.TrimPrefix(uri, "content://"), uri)
		return 1
	}
	switch c.args[1] {
	case "insert", "update":
		name := binds["name"]
		if name == "" {
			c.errorf("Error while accessing provider:settings\njava.lang.IllegalArgumentException: Invalid value: null\n")
			return 1
		}
		p.putSetting(ns, name, binds["value"])
	case "delete":
		if name := whereName(where); name != "" {
			delete(store, name)
			p.bump()
		}
	case "query":
		keys := make([]string, 0, len(store))
		for k := range store {
			if n := whereName(where); n == "" || n == k {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		if len(keys) == 0 {
			c.printf("No result found.\n")
		}
		for i, k := range keys {
			c.printf("Row: %d _id=%d, name=%s, value=%s\n", i, inode(ns+k)%500, k, store[k])
		}
	default:
		c.errorf("Unsupported operation: %s\n", c.args[1])
		return 1
	}
	return 0
}

// whereName reads name='KEY' from a content --where clause.
func whereName(where string) string {
	_, rest, ok := strings.Cut(where, "name=")
	if !ok {
		return ""
	}
	return strings.Trim(strings.Fields(rest + " ")[0], `'"`)
}

// putSetting stores one setting (settings put, content insert).
func (p *Phone) putSetting(ns, key, value string) {
	p.settings[ns][key] = value
	if ns == "secure" && key == "default_input_method" && slices.Contains(p.imes, value) {
		p.currentIME = value
	}
	if ns == "system" && key == "system_locales" {
		// The language picker writes both: apps read the setting, getprop the property.
		if first, _, _ := strings.Cut(value, ","); first != "" {
			p.props["persist.sys.locale"] = first
		}
	}
	p.bump()
}
