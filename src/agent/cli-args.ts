// API tokens are random base64url text, so one in 64 starts with '-'. node:util's parseArgs
// refuses `--token -abc` as ambiguous (it could be a forgotten value followed by an option),
// which would make the agent unusable with such a token. Options that always take a value are
// joined with it first (`--token=-abc`), which parseArgs reads without doubt.
export function joinOptionValues(argv: readonly string[], valued: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (valued.includes(arg.replace(/^--/, '')) && arg.startsWith('--') && i + 1 < argv.length) {
      out.push(`${arg}=${argv[++i]}`);
    } else out.push(arg);
  }
  return out;
}
