// The compiled service's imports, read statically from every .js file under a dist/ directory: each
// package it names must be a production dependency, and each relative import a file that was emitted.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import ts from 'typescript'

export type ImportProblem = { file: string; specifier: string; problem: string }

/** Files read at most: the service compiles to about 800; a runaway walk stops here. */
const MAX_FILES = 10_000

function listJs(dir: string): string[] {
  const out: string[] = []
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name.endsWith('.js')) out.push(full)
      if (out.length > MAX_FILES) throw new Error(`more than ${MAX_FILES} .js files under ${dir}`)
    }
  }
  walk(dir)
  return out.sort()
}

/** `@scope/name/sub` is `@scope/name`, `name/sub` is `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)

/**
 * Every import under `distDir` that production cannot satisfy: a devDependency, a package the
 * manifest does not declare (present only as someone else's dependency), or a relative file missing
 * from dist. Dynamic imports of computed names are not seen (the embedded PostgreSQL's platform
 * package is the one; server/database/embeddedPostgres.ts reports it missing in words).
 */
export function productionImportProblems(
  distDir: string,
  manifest: { dependencies: Record<string, string>; devDependencies: Record<string, string> },
): { files: number; packages: string[]; problems: ImportProblem[] } {
  const files = listJs(distDir)
  const packages = new Set<string>()
  const problems: ImportProblem[] = []
  for (const file of files) {
    const relativeFile = path.relative(distDir, file)
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (specifier.startsWith('.')) {
        if (!existsSync(path.resolve(path.dirname(file), specifier)))
          problems.push({ file: relativeFile, specifier, problem: 'relative import of a file not in dist' })
        continue
      }
      if (isBuiltin(specifier)) continue
      const name = packageOf(specifier)
      packages.add(name)
      if (name in manifest.dependencies) continue
      problems.push({
        file: relativeFile,
        specifier,
        problem: name in manifest.devDependencies ? 'a devDependency' : 'not a declared dependency',
      })
    }
  }
  return { files: files.length, packages: [...packages].sort(), problems }
}
