/**
 * The audiences and their roles. The spec lists personas grouped by audience and says that a
 * persona "must belong to the supplied companyType" without showing the grouping; this table is
 * that grouping, read from the order of the spec's lists (sponsor roles, CRO roles, site roles;
 * regulatory affairs and quality assurance appear in both the sponsor and the CRO group, which is
 * why the spec lists them twice). It drives validation, the OpenAPI descriptions, the forms and
 * the docs, so there is exactly one copy of it.
 */
export const COMPANY_TYPES = ['sponsor', 'cro', 'research-site'] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];

export const PERSONAS_BY_COMPANY_TYPE = {
  sponsor: [
    'clinical-science',
    'clinical-operations',
    'medical-writing',
    'regulatory-affairs',
    'quality-assurance',
    'executive-leadership',
  ],
  cro: [
    'project-clinical-operations',
    'study-start-up',
    'medical-writing-document-services',
    'regulatory-affairs',
    'quality-assurance',
    'executive-business-development',
  ],
  'research-site': ['clinical-research-coordinator', 'principal-investigator', 'site-director-owner'],
} as const satisfies Record<CompanyType, readonly string[]>;

/** Every persona a demo request may carry, in the spec's order, each once. */
export const LEAD_PERSONAS = [
  'clinical-science',
  'clinical-operations',
  'medical-writing',
  'regulatory-affairs',
  'quality-assurance',
  'executive-leadership',
  'project-clinical-operations',
  'study-start-up',
  'medical-writing-document-services',
  'executive-business-development',
  'clinical-research-coordinator',
  'principal-investigator',
  'site-director-owner',
] as const;
export type LeadPersona = (typeof LEAD_PERSONAS)[number];

/** Only CROs and research sites may suggest documents (spec 2.2). */
export const SUGGESTION_COMPANY_TYPES = ['cro', 'research-site'] as const;
export type SuggestionCompanyType = (typeof SUGGESTION_COMPANY_TYPES)[number];

export const SUGGESTION_PERSONAS = [
  'project-clinical-operations',
  'study-start-up',
  'medical-writing-document-services',
  'regulatory-affairs',
  'quality-assurance',
  'executive-business-development',
  'clinical-research-coordinator',
  'principal-investigator',
  'site-director-owner',
] as const;
export type SuggestionPersona = (typeof SUGGESTION_PERSONAS)[number];

/** Human labels for forms and documentation. */
export const COMPANY_TYPE_LABELS: Record<CompanyType, string> = {
  sponsor: 'Sponsor (pharma, biotech, device)',
  cro: 'Contract research organization (CRO)',
  'research-site': 'Research site',
};

export const PERSONA_LABELS: Record<LeadPersona, string> = {
  'clinical-science': 'Clinical science',
  'clinical-operations': 'Clinical operations',
  'medical-writing': 'Medical writing',
  'regulatory-affairs': 'Regulatory affairs',
  'quality-assurance': 'Quality assurance',
  'executive-leadership': 'Executive leadership',
  'project-clinical-operations': 'Project management and clinical operations',
  'study-start-up': 'Study start-up',
  'medical-writing-document-services': 'Medical writing and document services',
  'executive-business-development': 'Executive and business development',
  'clinical-research-coordinator': 'Clinical research coordinator',
  'principal-investigator': 'Principal investigator',
  'site-director-owner': 'Site director or owner',
};

/**
 * The solution page a suggestion is associated with when the request names none (spec 2.4 makes
 * `sourcePage` required in the answer): the audience page of its companyType.
 */
export const SOLUTION_PAGE_BY_COMPANY_TYPE: Record<SuggestionCompanyType, string> = {
  cro: '/solutions/cros',
  'research-site': '/solutions/research-sites',
};

export function personaBelongsTo(companyType: CompanyType, persona: string): boolean {
  return (PERSONAS_BY_COMPANY_TYPE[companyType] as readonly string[]).includes(persona);
}

/** The mapping as a Markdown table, for the OpenAPI descriptions and the docs. */
export function personaTableMarkdown(companyTypes: readonly CompanyType[] = COMPANY_TYPES): string {
  const rows = companyTypes.map(
    (type) => `| \`${type}\` | ${PERSONAS_BY_COMPANY_TYPE[type].map((p) => `\`${p}\``).join(', ')} |`,
  );
  return ['| companyType | personas that belong to it |', '|---|---|', ...rows].join('\n');
}
