/** The paths and the query key of 投标管理's people and certificate pages (tender/people, and the 工作台's certificate card CertCard.tsx). */

export const PEOPLE_KEY = ['tender', 'people'] as const;
const P = '/tender/personnel-certificate';
export const PEOPLE_PATHS = {
  collect: `${P}/collect`,
  personnel: `${P}/personnel-info`,
  personnelEdit: (id: string) => `${P}/personnel-edit/${id}`,
  personnelDetail: (id: string) => `${P}/personnel-detail/${id}`,
  titles: `${P}/professional-title`,
  titleAdd: `${P}/title-certificate-add`,
  titleModify: (id: string) => `${P}/title-certificate-modify/${id}`,
  certificates: `${P}/qualification-certificate`,
  certificateAdd: `${P}/qualification-certificate-add`,
  certificateModify: (id: string) => `${P}/qualification-certificate-modify/${id}`,
};
