import t from 'tap'
const x: bigint = 10n
t.equal(x + 1n, 11n)
