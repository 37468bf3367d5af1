/**
 * The seed forms' words (default-forms.ts and their pages' words) in the catalogue's other
 * languages (src/language/messages.ts): a page in one of them shows the demo request and the
 * document suggestion in it. A configured form gives its own under `translations:` in `_site.yaml`.
 * `{site}` is the site's name.
 */

import type { FormTranslation } from './form-definition.js';

export const REQUEST_DEMO_TRANSLATIONS: Readonly<Record<string, FormTranslation>> = {
  de: {
    words: {
      heading: 'Demo anfragen',
      intro: 'Erzählen Sie uns ein wenig über Ihr Team, und wir stimmen die Demo auf Ihre Arbeitsweise ab.',
      button: 'Demo anfragen',
      note: 'Wir verwenden diese Angaben ausschließlich, um Ihre Demo zu vereinbaren und nachzubereiten.',
      thanksHeading: 'Vielen Dank: Ihre Demo-Anfrage ist bei uns eingegangen',
      thanksText:
        'Unser Team meldet sich unter der angegebenen E-Mail-Adresse bei Ihnen, um einen Termin zu vereinbaren.',
    },
    fields: {
      name: { label: 'Name' },
      firstName: { label: 'Vorname' },
      lastName: { label: 'Nachname' },
      email: { label: 'Geschäftliche E-Mail-Adresse' },
      company: { label: 'Unternehmen' },
      role: { label: 'Position' },
      message: { label: 'Was möchten Sie sehen?', shortName: 'Nachricht' },
      teamSize: { label: 'Teamgröße', help: 'Zum Beispiel 10–50.' },
      timeline: { label: 'Zeitrahmen', help: 'Zum Beispiel „dieses Quartal“.' },
      companyType: {
        label: 'Art der Organisation',
        choices: {
          sponsor: 'Sponsor (Pharma, Biotech, Medizinprodukte)',
          cro: 'Auftragsforschungsinstitut (CRO)',
          'research-site': 'Prüfzentrum',
        },
      },
      persona: {
        label: 'Ihr Bereich',
        help: 'Die Auswahl richtet sich nach der Art der Organisation.',
        choices: {
          'clinical-science': 'Klinische Wissenschaft',
          'clinical-operations': 'Clinical Operations',
          'medical-writing': 'Medical Writing',
          'regulatory-affairs': 'Regulatory Affairs',
          'quality-assurance': 'Qualitätssicherung',
          'executive-leadership': 'Geschäftsleitung',
          'project-clinical-operations': 'Projektmanagement und Clinical Operations',
          'study-start-up': 'Study Start-up',
          'medical-writing-document-services': 'Medical Writing und Dokumentenservices',
          'executive-business-development': 'Geschäftsleitung und Business Development',
          'clinical-research-coordinator': 'Studienkoordination (Study Nurse)',
          'principal-investigator': 'Hauptprüfer (Principal Investigator)',
          'site-director-owner': 'Leitung oder Inhaber des Prüfzentrums',
        },
      },
    },
    pages: {
      pageTitle: 'Demo anfragen',
      pageLead:
        'Erzählen Sie uns, wer Sie sind und was Sie sehen möchten – wir melden uns bei Ihnen, um einen Termin zu vereinbaren.',
      pageDescription: 'Erleben Sie {site} in einer Demo, die auf Ihr Team zugeschnitten ist.',
      confirmationTitle: 'Demo-Anfrage eingegangen',
      confirmationDescription: 'Vielen Dank für Ihre Demo-Anfrage.',
      standaloneTitle: 'Demo anfragen',
      standaloneDescription: 'Fordern Sie eine Demo von {site} an.',
    },
  },
  fr: {
    words: {
      heading: 'Demander une démo',
      intro:
        'Parlez-nous un peu de votre équipe et nous organiserons une démonstration adaptée à votre façon de travailler.',
      button: 'Demander une démo',
      note: 'Nous utilisons ces informations uniquement pour organiser votre démonstration et en assurer le suivi.',
      thanksHeading: 'Merci : votre demande de démo a bien été reçue',
      thanksText: 'Notre équipe vous contactera à l’adresse e-mail indiquée pour convenir d’un rendez-vous.',
    },
    fields: {
      name: { label: 'Nom complet' },
      firstName: { label: 'Prénom' },
      lastName: { label: 'Nom' },
      email: { label: 'Adresse e-mail professionnelle' },
      company: { label: 'Entreprise' },
      role: { label: 'Fonction' },
      message: { label: 'Que souhaitez-vous voir ?', shortName: 'Message' },
      teamSize: { label: 'Taille de l’équipe', help: 'Par exemple 10 à 50.' },
      timeline: { label: 'Calendrier', help: 'Par exemple « ce trimestre ».' },
      companyType: {
        label: 'Type d’organisation',
        choices: {
          sponsor: 'Promoteur (pharma, biotech, dispositifs médicaux)',
          cro: 'Société de recherche sous contrat (CRO)',
          'research-site': 'Centre investigateur',
        },
      },
      persona: {
        label: 'Votre domaine',
        help: 'Les choix dépendent du type d’organisation.',
        choices: {
          'clinical-science': 'Sciences cliniques',
          'clinical-operations': 'Opérations cliniques',
          'medical-writing': 'Rédaction médicale',
          'regulatory-affairs': 'Affaires réglementaires',
          'quality-assurance': 'Assurance qualité',
          'executive-leadership': 'Direction générale',
          'project-clinical-operations': 'Gestion de projet et opérations cliniques',
          'study-start-up': 'Mise en place des études',
          'medical-writing-document-services': 'Rédaction médicale et services documentaires',
          'executive-business-development': 'Direction et développement commercial',
          'clinical-research-coordinator': 'Coordinateur de recherche clinique',
          'principal-investigator': 'Investigateur principal',
          'site-director-owner': 'Directeur ou propriétaire du centre',
        },
      },
    },
    pages: {
      pageTitle: 'Demander une démo',
      pageLead:
        'Dites-nous qui vous êtes et ce que vous aimeriez voir : nous vous contacterons pour convenir d’un rendez-vous.',
      pageDescription: 'Découvrez {site} lors d’une démo adaptée à votre équipe.',
      confirmationTitle: 'Demande de démo reçue',
      confirmationDescription: 'Merci d’avoir demandé une démo.',
      standaloneTitle: 'Demander une démo',
      standaloneDescription: 'Demandez une démo de {site}.',
    },
  },
  es: {
    words: {
      heading: 'Solicitar una demo',
      intro:
        'Cuéntanos un poco sobre tu equipo y organizaremos una demostración adaptada a tu forma de trabajar.',
      button: 'Solicitar una demo',
      note: 'Solo utilizamos estos datos para organizar tu demostración y hacer el seguimiento.',
      thanksHeading: 'Gracias: hemos recibido tu solicitud de demo',
      thanksText:
        'Nuestro equipo se pondrá en contacto contigo en la dirección de correo electrónico que nos indicaste para acordar una fecha.',
    },
    fields: {
      name: { label: 'Nombre completo' },
      firstName: { label: 'Nombre' },
      lastName: { label: 'Apellidos' },
      email: { label: 'Correo electrónico profesional' },
      company: { label: 'Empresa' },
      role: { label: 'Cargo' },
      message: { label: '¿Qué te gustaría ver?', shortName: 'Mensaje' },
      teamSize: { label: 'Tamaño del equipo', help: 'Por ejemplo, de 10 a 50.' },
      timeline: { label: 'Plazo', help: 'Por ejemplo, «este trimestre».' },
      companyType: {
        label: 'Tipo de organización',
        choices: {
          sponsor: 'Promotor (farmacéutica, biotecnológica, dispositivos médicos)',
          cro: 'Organización de investigación por contrato (CRO)',
          'research-site': 'Centro de investigación',
        },
      },
      persona: {
        label: 'Tu área',
        help: 'Las opciones dependen del tipo de organización.',
        choices: {
          'clinical-science': 'Ciencia clínica',
          'clinical-operations': 'Operaciones clínicas',
          'medical-writing': 'Redacción médica',
          'regulatory-affairs': 'Asuntos regulatorios',
          'quality-assurance': 'Garantía de calidad',
          'executive-leadership': 'Alta dirección',
          'project-clinical-operations': 'Gestión de proyectos y operaciones clínicas',
          'study-start-up': 'Puesta en marcha de estudios',
          'medical-writing-document-services': 'Redacción médica y servicios de documentación',
          'executive-business-development': 'Dirección y desarrollo de negocio',
          'clinical-research-coordinator': 'Coordinador de investigación clínica',
          'principal-investigator': 'Investigador principal',
          'site-director-owner': 'Director o propietario del centro',
        },
      },
    },
    pages: {
      pageTitle: 'Solicitar una demo',
      pageLead:
        'Dinos quién eres y qué te gustaría ver, y nos pondremos en contacto contigo para acordar una fecha.',
      pageDescription: 'Descubre {site} en una demo adaptada a tu equipo.',
      confirmationTitle: 'Solicitud de demo recibida',
      confirmationDescription: 'Gracias por solicitar una demo.',
      standaloneTitle: 'Solicitar una demo',
      standaloneDescription: 'Solicita una demo de {site}.',
    },
  },
  ja: {
    // Family name first, as forms in Japanese ask for it.
    firstFields: ['lastName', 'firstName'],
    words: {
      heading: 'デモを依頼',
      intro: 'チームについて少しお聞かせください。仕事の進め方に合わせたデモをご用意します。',
      button: 'デモを依頼する',
      note: 'ご入力いただいた情報は、デモの日程調整とその後のご連絡にのみ使用します。',
      thanksHeading: 'ありがとうございます。デモのご依頼を受け付けました',
      thanksText: '日程を調整するため、ご入力いただいたメールアドレスに担当者からご連絡いたします。',
    },
    fields: {
      name: { label: '氏名' },
      firstName: { label: '名' },
      lastName: { label: '姓' },
      email: { label: '勤務先メールアドレス' },
      company: { label: '会社名' },
      role: { label: '役職' },
      message: { label: 'どのような内容をご覧になりたいですか？', shortName: 'メッセージ' },
      teamSize: { label: 'チームの規模', help: '例: 10～50 名' },
      timeline: { label: '導入検討の時期', help: '例: 「今四半期」' },
      companyType: {
        label: '組織の種類',
        choices: {
          sponsor: '治験依頼者（製薬、バイオテック、医療機器）',
          cro: '医薬品開発業務受託機関（CRO）',
          'research-site': '実施医療機関',
        },
      },
      persona: {
        label: '担当分野',
        help: '選択肢は組織の種類に応じて変わります。',
        choices: {
          'clinical-science': 'クリニカルサイエンス',
          'clinical-operations': 'クリニカルオペレーション',
          'medical-writing': 'メディカルライティング',
          'regulatory-affairs': '薬事',
          'quality-assurance': '品質保証',
          'executive-leadership': '経営層',
          'project-clinical-operations': 'プロジェクトマネジメント・クリニカルオペレーション',
          'study-start-up': 'スタディスタートアップ',
          'medical-writing-document-services': 'メディカルライティング・ドキュメントサービス',
          'executive-business-development': '経営・事業開発',
          'clinical-research-coordinator': '治験コーディネーター（CRC）',
          'principal-investigator': '治験責任医師',
          'site-director-owner': '施設長またはオーナー',
        },
      },
    },
    pages: {
      pageTitle: 'デモを依頼',
      pageLead:
        'ご所属とご覧になりたい内容をお聞かせください。日程を調整するため、担当者からご連絡いたします。',
      pageDescription: 'チームに合わせたデモで {site} をご覧ください。',
      confirmationTitle: 'デモのご依頼を受け付けました',
      confirmationDescription: 'デモをご依頼いただきありがとうございます。',
      standaloneTitle: 'デモを依頼',
      standaloneDescription: '{site} のデモをご依頼いただけます。',
    },
  },
  zh: {
    // Family name first, as forms in Chinese ask for it.
    firstFields: ['lastName', 'firstName'],
    words: {
      heading: '申请演示',
      intro: '简单介绍一下您的团队，我们会按照您的工作方式安排演示。',
      button: '申请演示',
      note: '这些信息仅用于安排您的演示及后续跟进。',
      thanksHeading: '谢谢：我们已收到您的演示申请',
      thanksText: '我们的团队将通过您提供的电子邮件地址与您联系，约定演示时间。',
    },
    fields: {
      name: { label: '姓名' },
      firstName: { label: '名' },
      lastName: { label: '姓' },
      email: { label: '工作邮箱' },
      company: { label: '公司' },
      role: { label: '职位' },
      message: { label: '您希望看到哪些内容？', shortName: '留言' },
      teamSize: { label: '团队规模', help: '例如 10–50 人。' },
      timeline: { label: '时间安排', help: '例如“本季度”。' },
      companyType: {
        label: '机构类型',
        choices: {
          sponsor: '申办方（制药、生物技术、医疗器械）',
          cro: '合同研究组织（CRO）',
          'research-site': '研究中心',
        },
      },
      persona: {
        label: '您的领域',
        help: '可选领域随机构类型而变化。',
        choices: {
          'clinical-science': '临床科学',
          'clinical-operations': '临床运营',
          'medical-writing': '医学写作',
          'regulatory-affairs': '注册事务',
          'quality-assurance': '质量保证',
          'executive-leadership': '高层管理',
          'project-clinical-operations': '项目管理与临床运营',
          'study-start-up': '研究启动',
          'medical-writing-document-services': '医学写作与文档服务',
          'executive-business-development': '高层管理与业务拓展',
          'clinical-research-coordinator': '临床研究协调员（CRC）',
          'principal-investigator': '主要研究者',
          'site-director-owner': '研究中心负责人或所有者',
        },
      },
    },
    pages: {
      pageTitle: '申请演示',
      pageLead: '告诉我们您是谁、想了解哪些内容，我们会与您联系并安排时间。',
      pageDescription: '通过为您的团队量身定制的演示了解 {site}。',
      confirmationTitle: '已收到演示申请',
      confirmationDescription: '感谢您申请演示。',
      standaloneTitle: '申请演示',
      standaloneDescription: '申请 {site} 的演示。',
    },
  },
};

export const SUGGEST_DOCUMENT_TRANSLATIONS: Readonly<Record<string, FormTranslation>> = {
  de: {
    words: {
      heading: 'Dokument vorschlagen',
      intro:
        'Fehlt Ihnen ein Dokument, das Sie aus dem Prüfplan ableiten? Sagen Sie unserem Produktteam, welches Ihnen helfen würde.',
      button: 'Vorschlag senden',
      note: 'Ihr Vorschlag geht zur Prüfung an unser Produktteam.',
      thanksHeading: 'Vielen Dank: Ihr Vorschlag ist bei uns eingegangen',
      thanksText: 'Unser Produktteam prüft jeden Vorschlag, wenn es neue Dokumenttypen plant.',
    },
    fields: {
      companyType: {
        label: 'Art der Organisation',
        choices: {
          cro: 'Auftragsforschungsinstitut (CRO)',
          'research-site': 'Prüfzentrum',
        },
      },
      persona: {
        label: 'Ihr Bereich',
        help: 'Die Auswahl richtet sich nach der Art der Organisation.',
        choices: {
          'project-clinical-operations': 'Projektmanagement und Clinical Operations',
          'study-start-up': 'Study Start-up',
          'medical-writing-document-services': 'Medical Writing und Dokumentenservices',
          'regulatory-affairs': 'Regulatory Affairs',
          'quality-assurance': 'Qualitätssicherung',
          'executive-business-development': 'Geschäftsleitung und Business Development',
          'clinical-research-coordinator': 'Studienkoordination (Study Nurse)',
          'principal-investigator': 'Hauptprüfer (Principal Investigator)',
          'site-director-owner': 'Leitung oder Inhaber des Prüfzentrums',
        },
      },
      suggestion: {
        label: 'Welches Dokument möchten Sie aus dem Prüfplan erstellen lassen?',
        shortName: 'Dokumenttyp',
        help: 'Beschreiben Sie das aus dem Prüfplan abgeleitete Dokument oder Workflow-Ergebnis, das Sie benötigen.',
      },
      email: {
        label: 'Geschäftliche E-Mail-Adresse',
        help: 'Falls Sie eine Rückmeldung von uns wünschen.',
      },
    },
    pages: {
      pageTitle: 'Dokument vorschlagen',
      pageLead:
        'Fehlt Ihnen ein Dokument, das Sie aus dem Prüfplan ableiten? Sagen Sie unserem Produktteam, welches Ihnen helfen würde.',
      pageDescription:
        'Schlagen Sie ein aus dem Prüfplan abgeleitetes Dokument vor, das {site} erstellen soll.',
      confirmationTitle: 'Vorschlag eingegangen',
      confirmationDescription: 'Vielen Dank für Ihren Dokumentvorschlag.',
      standaloneTitle: 'Dokument vorschlagen',
      standaloneDescription:
        'Schlagen Sie ein aus dem Prüfplan abgeleitetes Dokument vor, das {site} erstellen soll.',
    },
  },
  fr: {
    words: {
      heading: 'Suggérer un document',
      intro:
        'Il vous manque un document que vous établissez à partir du protocole ? Dites à notre équipe produit lequel vous serait utile.',
      button: 'Envoyer la suggestion',
      note: 'Votre suggestion est transmise à notre équipe produit pour examen.',
      thanksHeading: 'Merci : votre suggestion a bien été reçue',
      thanksText:
        'Notre équipe produit examine chaque suggestion lorsqu’elle planifie de nouveaux types de documents.',
    },
    fields: {
      companyType: {
        label: 'Type d’organisation',
        choices: {
          cro: 'Société de recherche sous contrat (CRO)',
          'research-site': 'Centre investigateur',
        },
      },
      persona: {
        label: 'Votre domaine',
        help: 'Les choix dépendent du type d’organisation.',
        choices: {
          'project-clinical-operations': 'Gestion de projet et opérations cliniques',
          'study-start-up': 'Mise en place des études',
          'medical-writing-document-services': 'Rédaction médicale et services documentaires',
          'regulatory-affairs': 'Affaires réglementaires',
          'quality-assurance': 'Assurance qualité',
          'executive-business-development': 'Direction et développement commercial',
          'clinical-research-coordinator': 'Coordinateur de recherche clinique',
          'principal-investigator': 'Investigateur principal',
          'site-director-owner': 'Directeur ou propriétaire du centre',
        },
      },
      suggestion: {
        label: 'Quel document souhaiteriez-vous générer à partir du protocole ?',
        shortName: 'Type de document',
        help: 'Décrivez le document ou le livrable de workflow dérivé du protocole dont vous avez besoin.',
      },
      email: {
        label: 'Adresse e-mail professionnelle',
        help: 'Si vous souhaitez que nous vous recontactions.',
      },
    },
    pages: {
      pageTitle: 'Suggérer un document',
      pageLead:
        'Il vous manque un document que vous établissez à partir du protocole ? Dites à notre équipe produit lequel vous serait utile.',
      pageDescription: 'Suggérez un document dérivé du protocole que {site} pourrait générer.',
      confirmationTitle: 'Suggestion reçue',
      confirmationDescription: 'Merci d’avoir suggéré un document.',
      standaloneTitle: 'Suggérer un document',
      standaloneDescription: 'Suggérez un document dérivé du protocole que {site} pourrait générer.',
    },
  },
  es: {
    words: {
      heading: 'Sugerir un documento',
      intro:
        '¿Echas en falta algún documento que elaboras a partir del protocolo? Indica a nuestro equipo de producto cuál te sería útil.',
      button: 'Enviar sugerencia',
      note: 'Tu sugerencia llegará a nuestro equipo de producto para que la revise.',
      thanksHeading: 'Gracias: hemos recibido tu sugerencia',
      thanksText:
        'Nuestro equipo de producto revisa cada sugerencia al planificar nuevos tipos de documentos.',
    },
    fields: {
      companyType: {
        label: 'Tipo de organización',
        choices: {
          cro: 'Organización de investigación por contrato (CRO)',
          'research-site': 'Centro de investigación',
        },
      },
      persona: {
        label: 'Tu área',
        help: 'Las opciones dependen del tipo de organización.',
        choices: {
          'project-clinical-operations': 'Gestión de proyectos y operaciones clínicas',
          'study-start-up': 'Puesta en marcha de estudios',
          'medical-writing-document-services': 'Redacción médica y servicios de documentación',
          'regulatory-affairs': 'Asuntos regulatorios',
          'quality-assurance': 'Garantía de calidad',
          'executive-business-development': 'Dirección y desarrollo de negocio',
          'clinical-research-coordinator': 'Coordinador de investigación clínica',
          'principal-investigator': 'Investigador principal',
          'site-director-owner': 'Director o propietario del centro',
        },
      },
      suggestion: {
        label: '¿Qué documento te gustaría generar a partir del protocolo?',
        shortName: 'Tipo de documento',
        help: 'Describe el documento o resultado de flujo de trabajo derivado del protocolo que necesitas.',
      },
      email: {
        label: 'Correo electrónico profesional',
        help: 'Si quieres que nos pongamos en contacto contigo.',
      },
    },
    pages: {
      pageTitle: 'Sugerir un documento',
      pageLead:
        '¿Echas en falta algún documento que elaboras a partir del protocolo? Indica a nuestro equipo de producto cuál te sería útil.',
      pageDescription: 'Sugiere un documento derivado del protocolo para que {site} lo genere.',
      confirmationTitle: 'Sugerencia recibida',
      confirmationDescription: 'Gracias por sugerir un documento.',
      standaloneTitle: 'Sugerir un documento',
      standaloneDescription: 'Sugiere un documento derivado del protocolo para que {site} lo genere.',
    },
  },
  ja: {
    words: {
      heading: 'ドキュメントを提案',
      intro:
        'プロトコルから作成しているドキュメントで、足りないものはありませんか？どのドキュメントがあると役立つか、製品チームにお知らせください。',
      button: '提案を送信',
      note: 'ご提案は製品チームが確認します。',
      thanksHeading: 'ありがとうございます。ご提案を受け付けました',
      thanksText: '製品チームは、新しいドキュメントの種類を計画する際にすべてのご提案を検討しています。',
    },
    fields: {
      companyType: {
        label: '組織の種類',
        choices: {
          cro: '医薬品開発業務受託機関（CRO）',
          'research-site': '実施医療機関',
        },
      },
      persona: {
        label: '担当分野',
        help: '選択肢は組織の種類に応じて変わります。',
        choices: {
          'project-clinical-operations': 'プロジェクトマネジメント・クリニカルオペレーション',
          'study-start-up': 'スタディスタートアップ',
          'medical-writing-document-services': 'メディカルライティング・ドキュメントサービス',
          'regulatory-affairs': '薬事',
          'quality-assurance': '品質保証',
          'executive-business-development': '経営・事業開発',
          'clinical-research-coordinator': '治験コーディネーター（CRC）',
          'principal-investigator': '治験責任医師',
          'site-director-owner': '施設長またはオーナー',
        },
      },
      suggestion: {
        label: 'プロトコルからどのようなドキュメントを生成したいですか？',
        shortName: 'ドキュメントの種類',
        help: '必要としている、プロトコルから作成するドキュメントやワークフローの成果物をご記入ください。',
      },
      email: {
        label: '勤務先メールアドレス',
        help: '当社からのご連絡をご希望の場合はご入力ください。',
      },
    },
    pages: {
      pageTitle: 'ドキュメントを提案',
      pageLead:
        'プロトコルから作成しているドキュメントで、足りないものはありませんか？どのドキュメントがあると役立つか、製品チームにお知らせください。',
      pageDescription: '{site} で生成してほしい、プロトコルから作成するドキュメントをご提案ください。',
      confirmationTitle: 'ご提案を受け付けました',
      confirmationDescription: 'ドキュメントをご提案いただきありがとうございます。',
      standaloneTitle: 'ドキュメントを提案',
      standaloneDescription: '{site} で生成してほしい、プロトコルから作成するドキュメントをご提案ください。',
    },
  },
  zh: {
    words: {
      heading: '提出文档建议',
      intro: '缺少某种需要根据试验方案编写的文档？请告诉我们的产品团队哪种文档会对您有帮助。',
      button: '发送建议',
      note: '您的建议将提交给我们的产品团队审阅。',
      thanksHeading: '谢谢：我们已收到您的建议',
      thanksText: '我们的产品团队在规划新的文档类型时会审阅每一条建议。',
    },
    fields: {
      companyType: {
        label: '机构类型',
        choices: {
          cro: '合同研究组织（CRO）',
          'research-site': '研究中心',
        },
      },
      persona: {
        label: '您的领域',
        help: '可选领域随机构类型而变化。',
        choices: {
          'project-clinical-operations': '项目管理与临床运营',
          'study-start-up': '研究启动',
          'medical-writing-document-services': '医学写作与文档服务',
          'regulatory-affairs': '注册事务',
          'quality-assurance': '质量保证',
          'executive-business-development': '高层管理与业务拓展',
          'clinical-research-coordinator': '临床研究协调员（CRC）',
          'principal-investigator': '主要研究者',
          'site-director-owner': '研究中心负责人或所有者',
        },
      },
      suggestion: {
        label: '您希望根据试验方案生成哪种文档？',
        shortName: '文档类型',
        help: '请描述您需要的、源自试验方案的文档或工作流输出。',
      },
      email: {
        label: '工作邮箱',
        help: '如希望我们跟进回复，请填写。',
      },
    },
    pages: {
      pageTitle: '提出文档建议',
      pageLead: '缺少某种需要根据试验方案编写的文档？请告诉我们的产品团队哪种文档会对您有帮助。',
      pageDescription: '建议一种由 {site} 根据试验方案生成的文档。',
      confirmationTitle: '已收到建议',
      confirmationDescription: '感谢您提出文档建议。',
      standaloneTitle: '提出文档建议',
      standaloneDescription: '建议一种由 {site} 根据试验方案生成的文档。',
    },
  },
};
