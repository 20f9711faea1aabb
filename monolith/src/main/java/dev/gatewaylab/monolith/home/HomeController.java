package dev.gatewaylab.monolith.home;

import java.security.Principal;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The signed-in home page: the first page of studies, read in-process from study-core's table. */
@Controller
class HomeController {

	static final int PAGE_SIZE = 20;

	private final JdbcClient jdbc;

	HomeController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/")
	String home(Principal principal, Model model) {
		List<StudyRow> studies = this.jdbc
			.sql("SELECT id, title, category, capacity, member_count FROM study ORDER BY id LIMIT ?")
			.param(PAGE_SIZE)
			.query(StudyRow.class)
			.list();
		model.addAttribute("username", principal.getName());
		model.addAttribute("studies", studies);
		return "home";
	}

	record StudyRow(long id, String title, String category, int capacity, int memberCount) {
	}

}
