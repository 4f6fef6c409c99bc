// Where the REST API lives. Routes are registered under it, and records that name a URL of
// their own (a document's download link) are built from it.
export const API_PREFIX = '/node/api';
