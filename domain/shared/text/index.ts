// Free text a client sends: the control characters it may not hold, and the fields that may span lines.
export { type TextLines, codePointName, controlCharacterProblem, forbiddenControlIn } from './controlCharacters.js'
export { type FieldPattern, isMultiLineText, matchesPattern, multiLinePaths, multiLineText } from './multiLine.js'
