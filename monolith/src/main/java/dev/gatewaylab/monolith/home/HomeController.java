package dev.gatewaylab.monolith.home;

import java.security.Principal;

import dev.gatewaylab.study.StudyReader;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The signed-in home page: the first page of studies, through study-core's public read
 * API.
 */
@Controller
class HomeController {

	static final int PAGE_SIZE = 20;

	private final StudyReader studies;

	HomeController(StudyReader studies) {
		this.studies = studies;
	}

	@GetMapping("/")
	String home(Principal principal, Model model) {
		model.addAttribute("username", principal.getName());
		model.addAttribute("studies", this.studies.firstPage(PAGE_SIZE));
		return "home";
	}

}
