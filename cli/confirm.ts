// Asks the person at the terminal to confirm what a command is about to do: one line read from stdin,
// and only "yes" goes on. The question goes to stderr, and only when stdin is a terminal: otherwise
// stderr stays the one JSON error line a script parses. With no terminal (stdin closed or empty) the
// answer is no; a script that means it pipes "yes" or passes --yes.
import readline from 'node:readline'

export async function confirmed(question: string, input: NodeJS.ReadStream = process.stdin): Promise<boolean> {
  if (input.isTTY) process.stderr.write(`${question}\nType yes to go on: `)
  const lines = readline.createInterface({ input, terminal: false })
  try {
    const answer = await new Promise<string | undefined>((resolve) => {
      lines.once('line', resolve)
      lines.once('close', () => resolve(undefined))
    })
    return answer?.trim().toLowerCase() === 'yes'
  } finally {
    lines.close()
  }
}
