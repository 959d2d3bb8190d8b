// Usage: node scripts/check-gate.mjs FILE.json 'label' 'js expression over r' — fails (exit 1) when false.
import fs from 'node:fs';

const [file, label, expression] = process.argv.slice(2);
const text = fs.readFileSync(file, 'utf8');
const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
const r = JSON.parse(json);
const ok = Function('r', `return (${expression});`)(r);
process.stdout.write(`${ok ? 'PASS' : 'FAIL'} ${label}: ${expression}\n`);
if (!ok) process.exit(1);
