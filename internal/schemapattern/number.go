package schemapattern

// Number is the pattern of a JSON number literal (RFC 8259 section 6):
// what a json.Number field with the ",string" tag option must hold inside
// its quotes to be a number.
const Number = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`
