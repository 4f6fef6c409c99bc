// Ids as the API gives them (strings) turned into bigint keys. SQLite compares a string that is
// not an integer with an INTEGER column and simply finds nothing; PostgreSQL refuses to cast it
// and fails the statement. So a string that is not an id is answered "no such row" before any
// query, as SQLite would answer it.
/** The key an id string names, or undefined when it names nothing (not a positive integer). */
export function rowId(id: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : undefined;
}
