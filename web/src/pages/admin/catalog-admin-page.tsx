// Placeholder until this page is built.
export default function Page(_props: { id?: string }) {
  return <h1>catalog-admin-page</h1>;
}
