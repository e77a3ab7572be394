// Every import of every project .ts file (service code, not test/, bench/, docs/, unless asked), read with the
// TypeScript compiler's pre-processor: static imports, `export ... from`, type-only imports and
// dynamic `import()` alike. Relative specifiers resolve to project files; others stay package names.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

export type Import = {
  /** Importing file, relative to the root, with forward slashes. */
  from: string
  /** A project file (relative to the root) or, when `external`, the package specifier. */
  to: string
  external: boolean
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'test', 'bench', 'docs', '.git'])
/** Every .ts file a reader could import from: service code, tests and benches. */
export const ALL_CODE: ReadonlySet<string> = new Set(['node_modules', 'docs', '.git'])

function listSourceFiles(root: string, dir = '', skipped: ReadonlySet<string> = SKIPPED_DIRECTORIES): string[] {
  const out: string[] = []
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name) && !entry.name.startsWith('.')) out.push(...listSourceFiles(root, relative, skipped))
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(relative)
    }
  }
  return out
}

/** The project file a relative specifier names (`./x.js` is `./x.ts`, or the console's `./x.tsx`, under NodeNext). */
function resolveRelative(root: string, from: string, specifier: string): string {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier))
  const candidates = [joined.replace(/\.js$/, '.ts'), joined.replace(/\.js$/, '.tsx'), joined, `${joined}.ts`, `${joined}/index.ts`]
  return candidates.find((candidate) => existsSync(path.join(root, candidate))) ?? joined
}

/** `skipped`: directories not read (by default tests, benches and docs: the service's own imports). */
export function readImports(root: string, skipped: ReadonlySet<string> = SKIPPED_DIRECTORIES): { files: string[]; imports: Import[] } {
  const files = listSourceFiles(root, '', skipped).sort()
  const imports: Import[] = []
  for (const from of files) {
    const info = ts.preProcessFile(readFileSync(path.join(root, from), 'utf8'), true, true)
    for (const { fileName } of info.importedFiles) {
      const external = !fileName.startsWith('.')
      imports.push({ from, to: external ? fileName : resolveRelative(root, from, fileName), external })
    }
  }
  return { files, imports }
}

/** Groups of files that import each other, directly or through others (strongly connected, size > 1). */
export function importCycles(files: string[], imports: Import[]): string[][] {
  const edges = new Map<string, string[]>(files.map((file) => [file, []]))
  for (const i of imports) if (!i.external && edges.has(i.to)) edges.get(i.from)!.push(i.to)
  // Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const cycles: string[][] = []
  let counter = 0
  for (const start of files) {
    if (index.has(start)) continue
    const work: { file: string; next: number }[] = [{ file: start, next: 0 }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const targets = edges.get(frame.file)!
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!
        if (!index.has(target)) {
          index.set(target, counter)
          low.set(target, counter++)
          stack.push(target)
          onStack.add(target)
          work.push({ file: target, next: 0 })
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!))
      if (low.get(frame.file) === index.get(frame.file)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.file)
        if (component.length > 1) cycles.push(component.sort())
      }
    }
  }
  return cycles
}
