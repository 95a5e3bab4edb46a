// Prettier settings measured on the code as it was written by hand (see docs/testing.md,
// "Formatting"): 180 columns, single quotes, trailing commas everywhere, parentheses around
// every arrow parameter. These change the fewest lines of all the widths and options tried.
/** @type {import('prettier').Config} */
export default {
  printWidth: 180,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
  semi: true,
};
