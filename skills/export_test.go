package skills

// SetReloadPause makes k's Reload call pause between its steps (the
// catalog swap and the server's resource update), so a test can look at
// the server in between.
func SetReloadPause(k *Skills, pause func()) { k.reloadPause = pause }
