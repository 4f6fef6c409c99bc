// The users page's filter box, turned into a POST /users/search filter: the text is matched
// case-insensitively anywhere in the login or the e-mail. It is taken literally (regex
// characters escaped), so "a.b" finds "a.b" only.
const SPECIAL = /[.*+?^${}()|[\]\\]/g;

export function userSearchFilter(text: string): Record<string, unknown> {
  const pattern = text.trim().replace(SPECIAL, '\\$&');
  const like = { $regex: pattern, $options: 'i' };
  return { $or: [{ login: like }, { email: like }] };
}
