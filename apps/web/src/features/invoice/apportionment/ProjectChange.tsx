/** 项目变更 (/invoice/invoiceaccount/project-change). */
import { ChangePage } from './ChangePage';

export default function ProjectChange() {
  return <ChangePage dim="project" />;
}
