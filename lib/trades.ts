import shippedModel from './trade-model.json' with { type: 'json' };
import { NO_TRADE, noticeFeatures, tradeScorer, type NoticeFeatures, type TradeModel, type TradeScorer } from './trade-model.ts';

/**
 * The trade taxonomy: about thirty trades a supplier to government recognises itself in. Each trade lists
 * UNSPSC prefixes (segment, family or class) and keyword patterns. A tender's trade is chosen by the model in
 * `trade-model.ts` (fitted by `npm run fit:trades` on hand-labelled real titles), which reads the title and
 * summary words, the title's character n-grams, the buyer, the UNSPSC code and these keyword hits; a tender more like
 * "no trade" than any trade, or with no trade the model is sure enough of, has none.
 */
export interface Trade {
  id: string;
  name: string;
  /** UNSPSC code prefixes (2, 4 or 6 digits); a longer matching prefix is stronger evidence. */
  unspsc: string[];
  /** Word patterns (matched case-insensitively at word starts). */
  keywords: string[];
}

export const TRADES: Trade[] = [
  { id: 'civil-works', name: 'Civil works', unspsc: ['7211', '7214', '721410', '3012', '3013'], keywords: ['road', 'roads', 'roadworks', 'bridge', 'bridges', 'culvert', 'earthworks', 'pavement', 'resurfacing', 'reseal', 'kerb', 'footpath', 'intersection', 'causeway', 'civil works', 'civil construction', 'stormwater', 'drainage', 'retaining wall', 'rail track', 'sealing', 'gravel', 'bitumen', 'asphalt', 'boat ramp', 'jetty', 'wharf', 'seawall', 'levee', 'carpark', 'pavement rehabilitation', 'duplication', 'active travel', 'shared path', 'cycleway', 'highway', 'fire trail', 'floodway', 'road safety barriers', 'line marking', 'road markings', 'surface dressing', 'pothole', 'carriageway', 'streetscape'] },
  { id: 'building-construction', name: 'Building and construction', unspsc: ['72', '7210', '7212', '7215', '95', '3011', '3014', '3016', '3017', '3018'], keywords: ['construction of', 'building works', 'refurbishment', 'refurbishments', 'fitout', 'fit-out', 'fit out', 'extension', 'new building', 'redevelopment', 'renovation', 'renovations', 'demolition', 'construct', 'builder', 'head contractor', 'modular building', 'classroom', 'amenities block', 'roof replacement', 'roofing', 'painting', 'carpentry', 'joinery', 'flooring', 'glazing', 'bathroom', 'toilet block'] },
  { id: 'electrical', name: 'Electrical', unspsc: ['7215', '721511', '3912', '3911', '2612'], keywords: ['electrical', 'electrician', 'switchboard', 'lighting', 'led', 'solar', 'photovoltaic', 'generator', 'cabling', 'substation', 'power supply', 'ev charging', 'street lights', 'battery storage', 'power system', 'system restart', 'high voltage', 'switchgear', 'uninterruptible power', 'pat testing', 'test and tag', 'electrical inspection', 'charge points', 'charging infrastructure', 'rewires', 'rewiring', 'lightning protection'] },
  { id: 'plumbing', name: 'Plumbing and hydraulics', unspsc: ['721511', '4014', '4017'], keywords: ['plumbing', 'plumber', 'hydraulic', 'hydraulics', 'backflow', 'hot water', 'sewer', 'pipe relining', 'pipework', 'fire hydrant', 'gasfitting', 'gas fitting', 'gas servicing', 'gas appliance', 'domestic boiler', 'water heater', 'water heaters', 'boiling water', 'chilled water unit', 'drinking fountain', 'tapware', 'thermostatic mixing valve', 'grease arrestor', 'grease trap', 'trade waste', 'water meter', 'water meters', 'water supply system', 'toilets', 'drainage plumbing', 'medical gas', 'boiling and chilled water'] },
  { id: 'mechanical-hvac', name: 'Mechanical and HVAC', unspsc: ['4010', '721515', '7215'], keywords: ['hvac', 'air conditioning', 'air-conditioning', 'mechanical services', 'chiller', 'ventilation', 'heating', 'boiler', 'lift', 'lifts', 'elevator', 'escalator', 'refrigeration', 'stairlift', 'stairlifts', 'passenger lift', 'district heating', 'heat pump', 'heat pumps', 'air handling', 'mechanical systems', 'mechanical maintenance'] },
  { id: 'facilities-management', name: 'Facilities management and maintenance', unspsc: ['7210', '721015', '7610', '8012'], keywords: ['facilities management', 'facility management', 'facilities maintenance', 'building maintenance', 'property maintenance', 'maintenance services', 'minor works', 'repairs and maintenance', 'handyman', 'preventative maintenance', 'asset maintenance', 'fire safety', 'fire protection', 'essential services', 'responsive repairs', 'reactive maintenance', 'reactive repairs', 'planned maintenance', 'planned works', 'ppm', 'hard services', 'soft services', 'fm services', 'void properties', 'voids', 'property management', 'trades panel', 'building services', 'fire services', 'fire systems', 'automatic doors', 'repairs and planned works', 'repairs and maintenance dps', 'building fabric', 'height safety', 'passive fire', 'responsive maintenance', 'swimming pool maintenance'] },
  { id: 'cleaning', name: 'Cleaning', unspsc: ['7611', '4713'], keywords: ['cleaning', 'cleaners', 'janitorial', 'washroom', 'hygiene services', 'window cleaning', 'pressure washing', 'graffiti removal', 'linen', 'laundry', 'end of lease cleaning', 'disinfection', 'decontamination', 'washroom services', 'sanitary'] },
  { id: 'security', name: 'Security services', unspsc: ['9212', '4617', '4616'], keywords: ['security', 'guarding', 'guard', 'patrol', 'cctv', 'alarm monitoring', 'access control', 'locksmith', 'cash in transit', 'screening', 'keyholding', 'crowd management', 'stewarding', 'intruder alarm', 'door entry', 'anpr', 'security systems', 'guarding services', 'cash collection'] },
  { id: 'it-services', name: 'IT services and software', unspsc: ['43', '8111', '811115', '811116', '811117', '811118', '811122'], keywords: ['software', 'ict', 'it services', 'information technology', 'digital', 'cloud', 'saas', 'website', 'database', 'cyber', 'cybersecurity', 'servers', 'licences', 'licensing', 'erp', 'crm', 'helpdesk', 'service desk', 'laptops', 'computers', 'data centre', 'hosting', 'it system', 'information system', 'information systems', 'computer', 'computing', 'network equipment', 'network switches', 'wireless access points', 'web application', 'mobile app', 'end user computing', 'ict managed services', 'software licences', 'subscription software', 'servers and storage', 'it hardware', 'it infrastructure', 'it support', 'technology platform', 'cisco', 'microsoft', 'oracle', 'salesforce', 'atlassian', 'jira', 'adobe', 'citrix', 'netapp', 'vmware', 'servicenow', 'webex', 'azure'] },
  { id: 'telecommunications', name: 'Telecommunications', unspsc: ['8311', '4322', '4321'], keywords: ['telecommunications', 'telephony', 'mobile phones', 'radio network', 'two-way radio', 'satellite', 'fibre', 'nbn', 'carriage services', 'telecommunication', 'mobile devices'] },
  { id: 'consulting', name: 'Consulting and advisory', unspsc: ['8010', '8011', '801016', '8012', '8014'], keywords: ['consultancy', 'consulting', 'advisory', 'adviser', 'advisers', 'review', 'strategy', 'strategic', 'business case', 'evaluation', 'project management', 'change management', 'program management', 'probity', 'organisational review', 'governance', 'mid-term review', 'feasibility', 'risk management'] },
  { id: 'engineering', name: 'Engineering and design services', unspsc: ['8110', '811015', '811016', '811017'], keywords: ['engineering services', 'engineering consultancy', 'design services', 'geotechnical', 'structural', 'survey', 'surveying', 'inspection', 'inspections', 'condition assessment', 'detailed design', 'concept design', 'quantity surveying', 'asset inspection', 'superintendent', 'superintendency', 'superintendancy', 'superintendence', 'superintending', 'principal\'s authorised person', 'principals authorised person', 'authorised person', 'pap', 'certifier', 'commissioning agent', 'quantity surveyor', 'cost consultancy', 'cost estimation', 'cost planning', 'technical due diligence', 'flood study', 'floodplain', 'traffic impact assessment', 'traffic study', 'site investigation', 'contract administration', 'clerk of works'] },
  { id: 'architecture', name: 'Architecture and planning', unspsc: ['8110151', '811015', '8015'], keywords: ['architect', 'architectural', 'architecture', 'urban design', 'master plan', 'masterplan', 'town planning', 'heritage', 'landscape architecture', 'head design consultant', 'head design consultancy', 'design competition', 'design manual', 'conservation management plan', 'urban planning', 'urban realm', 'development plan', 'reference design', 'design lead'] },
  { id: 'environmental', name: 'Environmental services', unspsc: ['7710', '7711', '7712', '7713'], keywords: ['environmental', 'ecology', 'ecological', 'biodiversity', 'contamination', 'remediation', 'weed', 'weeds', 'pest', 'feral', 'revegetation', 'bushfire', 'erosion', 'water quality', 'monitoring program', 'asbestos', 'impact assessment', 'heritage survey', 'species survey', 'species surveys', 'threatened species', 'odour', 'peatland', 'grazing', 'wildlife'] },
  { id: 'waste', name: 'Waste and recycling', unspsc: ['7612', '7613'], keywords: ['waste', 'recycling', 'garbage', 'kerbside', 'landfill', 'organics', 'collection services', 'hazardous waste', 'litter', 'disposal'] },
  { id: 'water-utilities', name: 'Water and utilities', unspsc: ['8310', '4710', '4711'], keywords: ['water supply', 'wastewater', 'water treatment', 'sewage', 'reservoir', 'pump station', 'pumping station', 'desalination', 'dam', 'irrigation', 'water main', 'water mains', 'bore', 'water treatment plant', 'wtp', 'sewage treatment', 'treatment plant', 'wastewater treatment', 'dosing', 'potable water', 'water network', 'electricity supply', 'gas supply', 'energy supply', 'utilities', 'pressure reduction valve', 'water re-use', 'water reuse', 'recycled water', 'gas sale'] },
  { id: 'health', name: 'Health and medical services', unspsc: ['85', '8510', '8512', '8513', '8514'], keywords: ['health', 'medical', 'clinical', 'hospital', 'nursing', 'pathology', 'dental', 'mental health', 'allied health', 'pharmacy', 'patient', 'aged care', 'disability support', 'ndis', 'telehealth', 'radiology', 'imaging', 'general practice', 'gp', 'primary care', 'primary health', 'physiotherapy', 'locum', 'psychology', 'psychological', 'occupational health', 'health assessment', 'health assessments', 'clinical coding', 'drug and alcohol', 'alcohol and drug', 'substance use', 'harm reduction', 'hepatitis', 'immunisation', 'care beds', 'intermediate care', 'autism', 'neurodiversity', 'medical repatriation', 'wound care', 'midwifery', 'maternity', 'palliative', 'forensic medicine', 'screening services'] },
  { id: 'medical-supplies', name: 'Medical equipment and supplies', unspsc: ['42', '51', '4213', '4218', '4229'], keywords: ['medical equipment', 'medical supplies', 'consumables', 'pharmaceuticals', 'vaccines', 'ppe', 'defibrillators', 'wound care', 'surgical', 'diagnostic equipment', 'implant', 'implants', 'catheter', 'catheters', 'reusable medical devices', 'medical devices', 'pathology products', 'test kits', 'wheelchair', 'wheelchairs', 'wound dressing', 'dressings', 'gloves', 'patient monitors', 'infusion', 'syringe', 'endoscope', 'ultrasound', 'x-ray', 'radiotherapy', 'surgical instruments', 'medical aids', 'assay', 'rapid antigen'] },
  { id: 'education-training', name: 'Education and training', unspsc: ['86', '8610', '8611', '8613'], keywords: ['training', 'education', 'learning', 'course', 'courses', 'curriculum', 'tutoring', 'coaching', 'professional development', 'workshops', 'e-learning', 'scholarship', 'school', 'schools', 'first aid training'] },
  { id: 'legal', name: 'Legal services', unspsc: ['8012'], keywords: ['legal', 'lawyer', 'lawyers', 'solicitor', 'solicitors', 'barrister', 'litigation', 'conveyancing', 'legal panel', 'legal services', 'employment law', 'legal advice', 'legal advisory', 'counsel', 'kc'] },
  { id: 'finance-audit', name: 'Finance, audit and accounting', unspsc: ['8410', '8411', '8412'], keywords: ['audit', 'auditing', 'internal audit', 'accounting', 'accountant', 'financial', 'finance', 'payroll', 'taxation', 'actuarial', 'valuation', 'valuations', 'banking', 'insurance', 'investment', 'debt collection', 'insurance broker', 'due diligence', 'financial model', 'pfi'] },
  { id: 'marketing-communications', name: 'Marketing and communications', unspsc: ['8210', '8211', '8212', '8214'], keywords: ['marketing', 'advertising', 'communications', 'campaign', 'media', 'public relations', 'branding', 'brand', 'social media', 'graphic design', 'video production', 'photography', 'translation', 'interpreting', 'engagement', 'community engagement', 'media buying', 'public affairs', 'copywriting', 'typesetting', 'design and print'] },
  { id: 'research', name: 'Research and data collection', unspsc: ['8110', '8111', '8015'], keywords: ['research', 'survey of', 'surveys', 'study', 'trial', 'trials', 'data collection', 'analysis', 'modelling', 'statistics', 'census', 'demonstration', 'extension'] },
  { id: 'transport-logistics', name: 'Transport and logistics', unspsc: ['78', '7810', '7811', '7812', '7818'], keywords: ['freight', 'logistics', 'courier', 'removalist', 'removals', 'transport services', 'bus services', 'school bus', 'passenger transport', 'shipping', 'warehousing', 'storage', 'travel', 'charter', 'air services', 'taxi', 'taxis', 'home to school', 'school transport', 'passenger transport services', 'relocation services', 'haulage', 'air service', 'bus operator', 'business travel', 'furniture removal', 'office relocation', 'courier services'] },
  { id: 'fleet-vehicles', name: 'Fleet, vehicles and plant', unspsc: ['25', '2510', '2517', '2210', '2410'], keywords: ['vehicle', 'vehicles', 'fleet', 'truck', 'trucks', 'ute', 'utes', 'plant hire', 'plant and equipment', 'machinery', 'excavator', 'tyres', 'mower', 'mowers', 'tractor', 'bus', 'buses', 'ambulance', 'fire truck'] },
  { id: 'catering-food', name: 'Catering and food', unspsc: ['90', '50', '9010', '9011'], keywords: ['catering', 'food', 'meals', 'canteen', 'cafe', 'kiosk', 'vending', 'groceries', 'beverages', 'bakery', 'fruit', 'vegetables', 'bread', 'dairy', 'milk', 'food and drink', 'drinks', 'formal function', 'catered', 'cafeteria', 'kitchen services', 'fresh produce', 'meal'] },
  { id: 'furniture-supplies', name: 'Furniture and office supplies', unspsc: ['56', '44', '14', '4412', '5610'], keywords: ['furniture', 'office supplies', 'stationery', 'chairs', 'desks', 'workstations', 'shelving', 'uniforms', 'clothing', 'footwear', 'paper'] },
  { id: 'printing', name: 'Printing and publishing', unspsc: ['8212', '821217'], keywords: ['printing', 'print services', 'publishing', 'publication', 'signage', 'signs', 'mail house', 'mailing', 'print', 'printed material', 'banners', 'flags'] },
  { id: 'recruitment-hr', name: 'Recruitment and labour hire', unspsc: ['8011', '801116'], keywords: ['recruitment', 'labour hire', 'temporary staff', 'contractors panel', 'contingent workforce', 'executive search', 'staffing', 'human resources', 'employee assistance', 'workforce', 'agency staff', 'agency workers', 'contingent labour', 'temporary and permanent', 'executive recruitment', 'social workers'] },
  { id: 'landscaping-grounds', name: 'Landscaping and grounds', unspsc: ['7010', '7017', '7011'], keywords: ['landscaping', 'landscape', 'grounds maintenance', 'mowing', 'slashing', 'tree', 'trees', 'arborist', 'horticulture', 'gardening', 'turf', 'playground', 'parks', 'open space', 'irrigation maintenance', 'vegetation management'] },
  { id: 'community-services', name: 'Community and social services', unspsc: ['9310', '9313', '9314'], keywords: ['community services', 'social services', 'homelessness', 'housing support', 'family support', 'youth services', 'youth', 'domestic violence', 'family violence', 'counselling', 'case management', 'outreach', 'child care', 'childcare', 'early childhood', 'employment services', 'settlement services', 'domestic abuse', 'sexual violence', 'victim services', 'victims', 'carer', 'carers', 'tenancy', 'fostering', 'foster care', 'children in care', 'looked after', 'residential placement', 'residential placements', 'social care', 'adult social care', 'day opportunities', 'short breaks', 'domiciliary care', 'mentoring', 'gambling support', 'parenting', 'community development', 'temporary accommodation', 'emergency accommodation', 'nursery services', 'childcare services', 'disability services', 'aged care services', 'safe accommodation'] },
  { id: 'events-arts', name: 'Events, arts and recreation', unspsc: ['9012', '9015', '8214'], keywords: ['event', 'events', 'festival', 'exhibition', 'arts', 'artwork', 'public art', 'performance', 'conference', 'recreation', 'sport', 'sporting', 'aquatic', 'library', 'museum', 'tourism'] },
];

const escapedKeyword = (keyword: string) => keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');

/** A keyword matches at a word start and may take a plural or -ing ending ("road" matches "roads"). */
const keywordPattern = (alternatives: string) => new RegExp(`(?:^|[^a-z0-9])(?:${alternatives})(?:s|es|ing)?(?![a-z0-9])`, 'i');

/**
 * Each trade's keywords as one alternation (any of them matching is a hit), and each keyword alone for the rare
 * notice whose title and summary both hit the trade. The nightly run classifies every tender, contract and plan,
 * and about a thousand separate patterns per text were most of its time; a trade's hit is the same either way.
 */
const COMPILED = TRADES.map((trade) => ({ trade, any: keywordPattern(trade.keywords.map(escapedKeyword).join('|')), each: trade.keywords.map((keyword) => keywordPattern(escapedKeyword(keyword))) }));

export interface TradeInput {
  title: string;
  summary?: string | null;
  /** 8-digit UNSPSC code, when the source publishes one. */
  category?: string | null;
  /** The buying agency's name as the source publishes it. */
  buyer?: string | null;
}

/**
 * The trades whose keywords the title matches; those with a keyword the summary matches that the title does not
 * (a summary repeating the title's keyword adds nothing); and those whose UNSPSC prefixes the code starts with.
 */
function keywordHits(input: TradeInput): { title: string[]; summary: string[]; unspsc: string[] } {
  const hits = { title: [] as string[], summary: [] as string[], unspsc: [] as string[] };
  const category = input.category ?? '';
  for (const { trade, any, each } of COMPILED) {
    const inTitle = any.test(input.title);
    if (inTitle) hits.title.push(trade.id);
    if (input.summary && any.test(input.summary) && (!inTitle || each.some((pattern) => !pattern.test(input.title) && pattern.test(input.summary!)))) hits.summary.push(trade.id);
    if (category && trade.unspsc.some((prefix) => category.startsWith(prefix))) hits.unspsc.push(trade.id);
  }
  return hits;
}

/** What the classifier reads of a notice: its words, UNSPSC prefixes and the taxonomy's keyword hits. */
export function tradeFeatures(input: TradeInput): NoticeFeatures {
  return noticeFeatures({ title: input.title, summary: input.summary ?? null, unspsc: input.category ?? null, buyer: input.buyer ?? null }, keywordHits(input));
}

/**
 * A trade is given only when the model puts at least 40% on it (against every other trade and "no trade"):
 * a wrong trade misleads search filters, similar tenders and matching, where no trade only leaves the notice
 * out of a trade page. Chosen on the cross-validated corpus figures (lib/trades-corpus.test.ts, 2,643 titles:
 * 0 → precision 0.81, recall 0.80; 0.3 → 0.86, 0.77; 0.4 → 0.89, 0.74; 0.5 → 0.91, 0.70).
 */
const MINIMUM_POSTERIOR = 0.4;

let shipped: TradeScorer | undefined;

/** The best trade for a tender under `scorer` (the shipped model by default), or null when "no trade" is likelier. */
export function classifyTrade(input: TradeInput, scorer?: TradeScorer): string | null {
  shipped ??= tradeScorer(shippedModel as TradeModel);
  const { label, posterior } = (scorer ?? shipped).best(tradeFeatures(input));
  return label === NO_TRADE || posterior < MINIMUM_POSTERIOR ? null : label;
}
