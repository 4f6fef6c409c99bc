// Text typed into a search box, matched literally and in any case by the API's MongoDB-style
// `$regex` (RE2 on the server): regex characters are escaped.

export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The criterion "contains this text, any case". */
export const containsText = (text: string) => ({ $regex: escapeRegex(text), $options: 'i' });
