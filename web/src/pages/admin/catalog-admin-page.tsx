// Tags, classes and states (route /admin/catalog): one page, a section for each.
import { ClassesSection } from './classes-section';
import { StatesSection } from './states-section';
import { TagsSection } from './tags-section';
import './admin.css';

export default function CatalogAdminPage() {
  return (
    <>
      <h1>Tags, classes, states</h1>
      <TagsSection />
      <ClassesSection />
      <StatesSection />
    </>
  );
}
