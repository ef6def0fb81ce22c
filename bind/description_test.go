package bind

import "testing"

func TestDescription(t *testing.T) {
	cases := []struct{ doc, name, want string }{
		{"CurrentWeather gets current weather information for any location worldwide.\n", "CurrentWeather", "Gets current weather information for any location worldwide."},
		{"Adds two numbers,\nreturning their sum.\n\nSecond paragraph\nwraps too.\n", "Add", "Adds two numbers, returning their sum.\n\nSecond paragraph wraps too."},
		{"Lists:\n- one\n- two\n", "X", "Lists:\n- one\n- two"},
		{"CurrentWeatherish is not the name.", "CurrentWeather", "CurrentWeatherish is not the name."},
		{"", "X", ""},
		{"Config is the app configuration.", "Config", "The app configuration."},
		{"Greet someone by name.", "Greet", "Greet someone by name."},
	}
	for _, c := range cases {
		if got := description(c.doc, c.name); got != c.want {
			t.Errorf("description(%q, %q) = %q, want %q", c.doc, c.name, got, c.want)
		}
	}
}
