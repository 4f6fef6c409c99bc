// TODO(issue 4): the incidents store (incidents, comments, history, levels).
export interface IncidentsStore {}
