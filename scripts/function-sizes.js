// The longest functions and files of app/ and server/ (tests left out). A function's size leaves out the lines of
// its SQL statements (sql`…` templates) and of its JSX, which read as one block each; nested functions count in
// their own right and not in their parent's.
//
//   node scripts/function-sizes.js            the 15 longest functions and files
//   node scripts/function-sizes.js --max 80   exits 1 when a function is longer than 80 lines
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const ROOTS = ['app', 'server']
const TEST = /\.test\.tsx?$/

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return name === 'migrations' ? [] : sourceFiles(full)
    return /\.tsx?$/.test(name) && !TEST.test(name) ? [full] : []
  })
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node)

const isSql = (node) => ts.isTaggedTemplateExpression(node) && /(^|\.)sql$/.test(node.tag.getText())

const isJsx = (node) => ts.isJsxElement(node) || ts.isJsxFragment(node) || ts.isJsxSelfClosingElement(node)

function nameOf(node) {
  if (node.name) return node.name.getText()
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText()
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText().slice(0, 40)})`
  return '(anonymous)'
}

/** The lines of `fn` that are its own: not in SQL, JSX or a nested function. */
function ownLines(fn, file) {
  const line = (pos) => file.getLineAndCharacterOfPosition(pos).line
  const first = line(fn.getStart(file))
  const last = line(fn.getEnd())
  const excluded = new Set()
  const exclude = (node) => {
    // A block's first line is the parent's own line (`const x = sql` or `return (`): it stays counted.
    for (let l = line(node.getStart(file)) + 1; l <= line(node.getEnd()); l++) excluded.add(l)
  }
  const walk = (node) => {
    if (node !== fn && isFunction(node)) return exclude(node)
    if (isSql(node) || isJsx(node)) return exclude(node)
    ts.forEachChild(node, walk)
  }
  ts.forEachChild(fn, walk)
  let count = 0
  for (let l = first; l <= last; l++) if (!excluded.has(l)) count++
  return count
}

const functions = []
const files = []
for (const name of ROOTS.flatMap(sourceFiles)) {
  const text = readFileSync(name, 'utf8')
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true)
  files.push({ name, lines: text.split('\n').length })
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const at = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1
      functions.push({ name: nameOf(node), where: `${name}:${at}`, lines: ownLines(node, file) })
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
}

const maxAt = process.argv.indexOf('--max')
const max = maxAt > 0 ? Number(process.argv[maxAt + 1]) : undefined
functions.sort((a, b) => b.lines - a.lines)
files.sort((a, b) => b.lines - a.lines)
const over = max === undefined ? [] : functions.filter((f) => f.lines > max)
const shown = max === undefined ? functions.slice(0, 15) : over

console.log(`${functions.length} functions in ${files.length} files`)
if (max === undefined) console.log('Longest functions (own lines, SQL and JSX left out):')
else console.log(over.length > 0 ? `Over ${max} lines:` : `None over ${max} lines.`)
for (const f of shown) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.where}`)
if (max === undefined) {
  console.log('Longest files:')
  for (const f of files.slice(0, 15)) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}`)
}
if (over.length > 0) process.exit(1)
