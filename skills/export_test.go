package skills

// SetReloadPause makes k's Reload call pause between its steps (the
// server's resource registration and the catalog swap), so a test can look
// at the server in between.
func SetReloadPause(k *Skills, pause func()) { k.reloadPause = pause }
